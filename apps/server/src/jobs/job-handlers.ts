import type { Job } from 'bullmq';
import { JOB_CATALOGUE, JobName } from './job-catalogue';
import type { JobNameOf, PayloadOf } from './job-catalogue';
import type { QueueName } from './queue-name.enum';

/** Runs one job: its payload, typed from the catalogue, and the BullMQ job (progress, attempts). */
export type JobHandler<N extends JobName> = (data: PayloadOf<N>, job: Job<PayloadOf<N>>) => Promise<unknown>;

/** A queue's processor: exactly one handler for every job the catalogue puts on the queue. */
export type JobHandlers<Q extends QueueName> = { readonly [N in JobNameOf<Q>]: JobHandler<N> };

/** The handler of the job's name, or null when the queue has none (a job that can never run). */
export function handlerFor<Q extends QueueName>(
  handlers: JobHandlers<Q>,
  name: string,
): ((data: unknown, job: Job) => Promise<unknown>) | null {
  if (!Object.hasOwn(handlers, name)) return null;
  return (handlers as unknown as Record<string, (data: unknown, job: Job) => Promise<unknown>>)[name];
}

/** Narrows a job to the payload of its name. */
export function isJobNamed<N extends JobName>(job: Job | undefined, name: N): job is Job<PayloadOf<N>> {
  return job?.name === name;
}

/** The job names a queue's processor declared handlers for. */
export interface HandlerRegistration {
  queue: QueueName;
  names: readonly string[];
}

/**
 * The boot check: across the processors of this process, every job of the catalogue has exactly one
 * handler, on the queue the catalogue puts it on, and no handler names a job the catalogue lacks.
 * Throws a sentence naming each mismatch. A process without processors (the API alone) is not checked.
 */
export function assertJobHandlers(registrations: readonly HandlerRegistration[]): void {
  if (registrations.length === 0) return;
  const known = new Set<string>(Object.values(JobName));
  const problems: string[] = [];
  const handlers = new Map<string, number>();
  for (const { queue, names } of registrations) {
    for (const name of names) {
      if (!known.has(name)) {
        problems.push(`the ${queue} queue has a handler for "${name}", which is not in the job catalogue`);
        continue;
      }
      const expected = JOB_CATALOGUE[name as JobName].queue;
      if (expected !== queue) {
        problems.push(`"${name}" is handled on the ${queue} queue, but the catalogue puts it on ${expected}`);
      }
      handlers.set(name, (handlers.get(name) ?? 0) + 1);
    }
  }
  for (const name of Object.values(JobName)) {
    const count = handlers.get(name) ?? 0;
    if (count === 0) problems.push(`no processor handles "${name}" (${JOB_CATALOGUE[name].queue} queue)`);
    if (count > 1) problems.push(`"${name}" has ${count} handlers`);
  }
  if (problems.length > 0) {
    throw new Error(
      `The job handlers do not match the job catalogue (jobs/job-catalogue.ts): ${problems.join('; ')}.`,
    );
  }
}
