/** The working stages of the status machine, in order (each one is also the document's status). */
export type IngestionStage = 'parsing' | 'chunking' | 'embedding';

/** What a job reports with job.updateProgress, and what the events stream and GET /documents/:id show. */
export interface IngestionProgress {
  stage: IngestionStage;
  done: number;
  total: number;
  /** Which run of the job this is (1 for the first; a retry or a recovered crash counts up). */
  attempt: number;
}

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
