import type { JobsOptions } from 'bullmq';

/** Named retry policies; a job's catalogue entry names one. */
export const RetryPolicies = {
  /** Faults that pass (embedding endpoint down, database busy): 5 attempts, 2 s, 4 s, 8 s, 16 s apart. */
  transient: { attempts: 5, backoff: { type: 'exponential', delay: 2_000 } },
  /** Work that is cheap to ask for again by hand: a single attempt. */
  once: { attempts: 1 },
} as const satisfies Record<string, Pick<JobsOptions, 'attempts' | 'backoff'>>;

export type RetryPolicyName = keyof typeof RetryPolicies;
