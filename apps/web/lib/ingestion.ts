import type { DocumentStatus } from '@lumina/shared';
import type { DocumentEventView } from './api/documents';

export const TERMINAL_STATUSES: readonly DocumentStatus[] = ['indexed', 'failed', 'cancelled'];

export function isTerminal(status: DocumentStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

const STAGE_RANGE: Record<DocumentStatus, [number, number]> = {
  queued: [0, 0.02],
  parsing: [0.02, 0.15],
  chunking: [0.15, 0.25],
  embedding: [0.25, 0.98],
  indexed: [1, 1],
  failed: [1, 1],
  cancelled: [1, 1],
};

/** 0..1 across the whole ingestion: each stage owns a slice, filled by its done/total. */
export function overallProgress(progress: Pick<DocumentEventView, 'status' | 'done' | 'total'>): number {
  const [from, to] = STAGE_RANGE[progress.status];
  const fraction = progress.total > 0 ? Math.min(1, Math.max(0, progress.done / progress.total)) : 0;
  return from + (to - from) * fraction;
}

const STATUS_WORDS: Record<DocumentStatus, string> = {
  queued: 'Waiting in the queue',
  parsing: 'Reading the file',
  chunking: 'Splitting into passages',
  embedding: 'Embedding passages',
  indexed: 'Indexed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** "Embedding passages: 12 of 40". */
export function describeProgress(progress: Pick<DocumentEventView, 'status' | 'done' | 'total'>): string {
  const words = STATUS_WORDS[progress.status];
  if (progress.status === 'embedding' && progress.total > 0)
    return `${words}: ${progress.done} of ${progress.total}`;
  return words;
}

export function statusWord(status: DocumentStatus): string {
  return STATUS_WORDS[status];
}
