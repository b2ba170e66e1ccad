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

/**
 * The headings to show after a document's title in a citation. A document's title now often comes from
 * its first H1, which is also the first heading of every passage under it, so "Staff Handbook › Staff
 * Handbook › Leave" drops the repeat. Compared trimmed and case-insensitively.
 */
export function headingsAfterTitle(title: string, headingPath: readonly string[]): string[] {
  const [first, ...rest] = headingPath;
  if (first !== undefined && first.trim().toLowerCase() === title.trim().toLowerCase()) return rest;
  return [...headingPath];
}
