/** Ingestion status machine: queued → parsing → chunking → embedding → indexed, or failed / cancelled. */
export type DocumentStatus =
  'queued' | 'parsing' | 'chunking' | 'embedding' | 'indexed' | 'failed' | 'cancelled';

export const DOCUMENT_STATUSES: readonly DocumentStatus[] = [
  'queued',
  'parsing',
  'chunking',
  'embedding',
  'indexed',
  'failed',
  'cancelled',
];

/** A paginated list answer, the same shape on every list endpoint. */
export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}
