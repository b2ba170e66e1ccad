import type { ExpectedSource } from '@lumina/shared';

/**
 * The CSV layout of a bank (export writes it, import reads it). Lists inside a cell are separated by
 * ";"; an expected source may carry a grade after "=", e.g. `doc-17=2;doc-4`.
 */
export const CSV_COLUMNS = [
  'id',
  'question',
  'expected_answer',
  'in_scope',
  'expected_documents',
  'expected_chunks',
  'language',
  'tags',
  'difficulty',
  'source',
  'generator',
] as const;

/** Columns the importer reads; the others (id, source, generator) are written by export and ignored. */
export const CSV_IMPORT_COLUMNS = new Set([
  'question',
  'expected_answer',
  'in_scope',
  'expected_documents',
  'expected_chunks',
  'language',
  'tags',
  'difficulty',
]);
export const CSV_IGNORED_COLUMNS = new Set(['id', 'source', 'generator', 'created_at', 'updated_at']);

/** A ";"-separated list cell, blanks dropped. */
export function splitList(cell: string): string[] {
  return cell
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** `ref=grade` → { ref, grade }; a missing grade is undefined, a bad one is reported. */
export function parseGradedRef(part: string): { ref: string; grade?: number } | { error: string } {
  const at = part.lastIndexOf('=');
  if (at === -1) return { ref: part };
  const ref = part.slice(0, at).trim();
  const grade = part.slice(at + 1).trim();
  if (!/^[+-]?\d+$/.test(grade)) return { error: `grade of "${ref}" must be an integer, found "${grade}"` };
  return { ref, grade: Number(grade) };
}

/** The cell of a boolean: true/false, yes/no, 1/0 (case-insensitive); empty is the default. */
export function parseBooleanCell(cell: string): boolean | undefined | 'invalid' {
  const value = cell.trim().toLowerCase();
  if (value === '') return undefined;
  if (['true', 'yes', '1'].includes(value)) return true;
  if (['false', 'no', '0'].includes(value)) return false;
  return 'invalid';
}

export function formatSources(sources: ExpectedSource[], level: 'document' | 'chunk'): string {
  return sources
    .filter((source) => (level === 'chunk' ? source.chunkId : !source.chunkId && source.documentId))
    .map((source) => {
      const ref = level === 'chunk' ? source.chunkId! : source.documentId!;
      return source.grade === undefined ? ref : `${ref}=${source.grade}`;
    })
    .join(';');
}
