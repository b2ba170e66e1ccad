import type { IngestionProgress } from '@lumina/shared';

// A job reports its progress (job.updateProgress) as the wire type IngestionProgress from libs/shared,
// which the events stream and GET /documents/:id show as they are.

/** An ingestion job's return value (BullMQ keeps it; the metrics count it). */
export interface IngestionOutcome {
  documentId: string;
  outcome: 'indexed' | 'already-indexed' | 'cancelled';
  chunks: number;
}

/** How a job runs one attempt: which one it is, and where its progress goes. */
export interface JobAttempt {
  /** 1-based; compared with maxAttempts to know whether a failure is the last. */
  attempt: number;
  maxAttempts: number;
  /** Runs started, including ones a crash cut short. */
  started: number;
  report(progress: Omit<IngestionProgress, 'attempt'>): Promise<void>;
}

export function isIngestionProgress(value: unknown): value is IngestionProgress {
  const candidate = value as Partial<IngestionProgress> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.stage === 'string' &&
    typeof candidate.done === 'number' &&
    typeof candidate.total === 'number'
  );
}
