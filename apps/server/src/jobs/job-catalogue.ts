import type { JobsOptions } from 'bullmq';
import { QueueName } from './queue-name.enum';
import { RetryPolicies } from './retry-policies';
import type { RetryPolicyName } from './retry-policies';

/** Every job name. */
export enum JobName {
  IngestDocument = 'ingest-document',
  ReembedChunks = 'reembed-chunks',
  DeleteCollection = 'delete-collection',
  GenerateQuestions = 'generate-questions',
  EvaluateBank = 'evaluate-bank',
  EvaluateAblation = 'evaluate-ablation',
  FitReranker = 'fit-reranker',
  SyncSource = 'sync-source',
}

/** Job name → payload type. A payload holds ids, never file contents. */
export interface JobPayloads {
  [JobName.IngestDocument]: { documentId: string };
  [JobName.ReembedChunks]: { model: string };
  /** Remove a collection marked as being deleted, with its documents, chunks, banks and rerankers. */
  [JobName.DeleteCollection]: { collectionId: string };
  [JobName.GenerateQuestions]: GenerateQuestionsPayload;
  [JobName.EvaluateBank]: { runId: string };
  /** Every combination's run of the ablation, one after another. */
  [JobName.EvaluateAblation]: { ablationId: string };
  /** Fit a learned reranker on its bank (the row says which bank, learner and depth). */
  [JobName.FitReranker]: { modelId: string };
  /** Sync a source with what its folder or repository holds now (one job id per source). */
  [JobName.SyncSource]: { sourceId: string; trigger: 'manual' | 'schedule' };
}

/** Write `count` items into a bank from passages of the given documents, with the template's prompt. */
export interface GenerateQuestionsPayload {
  bankId: string;
  templateId: string;
  documentIds: string[];
  count: number;
}

interface CatalogueEntry {
  queue: QueueName;
  retry: RetryPolicyName;
  /** Keep finished jobs a while so /admin/queues and the metrics can show them. */
  keep: { completed: number; failed: number };
}

export const JOB_CATALOGUE = {
  [JobName.IngestDocument]: {
    queue: QueueName.Ingestion,
    retry: 'transient',
    keep: { completed: 1000, failed: 5000 },
  },
  [JobName.ReembedChunks]: {
    queue: QueueName.Ingestion,
    retry: 'transient',
    keep: { completed: 100, failed: 100 },
  },
  [JobName.DeleteCollection]: {
    queue: QueueName.Ingestion,
    retry: 'transient',
    keep: { completed: 100, failed: 100 },
  },
  [JobName.GenerateQuestions]: {
    queue: QueueName.Evaluation,
    retry: 'transient',
    keep: { completed: 100, failed: 100 },
  },
  [JobName.EvaluateBank]: {
    queue: QueueName.Evaluation,
    retry: 'once',
    keep: { completed: 100, failed: 100 },
  },
  [JobName.EvaluateAblation]: {
    queue: QueueName.Evaluation,
    retry: 'once',
    keep: { completed: 100, failed: 100 },
  },
  [JobName.FitReranker]: {
    queue: QueueName.Evaluation,
    retry: 'once',
    keep: { completed: 100, failed: 100 },
  },
  // A sync that failed is asked for again (by hand or by the schedule); one killed mid-way is rerun by
  // BullMQ's stall check and redoes only what it had not recorded.
  [JobName.SyncSource]: {
    queue: QueueName.Sources,
    retry: 'once',
    keep: { completed: 100, failed: 100 },
  },
} as const satisfies Record<JobName, CatalogueEntry>;

/** The payload of a job. */
export type PayloadOf<N extends JobName> = JobPayloads[N];

/** The jobs the catalogue puts on a queue. */
export type JobNameOf<Q extends QueueName> = {
  [N in JobName]: (typeof JOB_CATALOGUE)[N]['queue'] extends Q ? N : never;
}[JobName];

/** BullMQ options for a job: its named retry policy and retention, plus a dedupe id when given. */
export function jobOptions(name: JobName, jobId?: string): JobsOptions {
  const entry: CatalogueEntry = JOB_CATALOGUE[name];
  return {
    ...RetryPolicies[entry.retry],
    removeOnComplete: { count: entry.keep.completed },
    removeOnFail: { count: entry.keep.failed },
    ...(jobId ? { jobId } : {}),
  };
}
