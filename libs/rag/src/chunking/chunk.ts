/** Size limits shared by the chunkers. Lengths are measured in UTF-16 code units of the source span. */
export interface ChunkerOptions {
  /** Upper bound for `end - start` of every chunk. Integer ≥ 1. */
  maxChars: number;
  /** Budget for sentences repeated from the end of the previous chunk. 0 ≤ overlapChars < maxChars. */
  overlapChars: number;
}

import type { PageRange } from '@lumina/shared';

/** One indexing unit cut out of a source document. */
export interface Chunk {
  documentId: string;
  /** 0, 1, 2 ... in document order. */
  ordinal: number;
  /** Character offset in the source text (inclusive). */
  start: number;
  /** Character offset in the source text (exclusive); `source.slice(start, end) === text`. */
  end: number;
  text: string;
  /** Enclosing headings, outermost first; `[]` when the text is not under a heading. */
  headingPath: string[];
  /** Stable slug of the heading path for citations, unique per section within a document; null without heading. */
  anchor: string | null;
  /** What gets embedded and indexed: the formatted heading path, a blank line, then the text. */
  indexText: string;
  /** The pages of a paged source the chunk runs over; absent for unpaged sources. */
  pages?: PageRange;
}

export const HEADING_SEPARATOR = ' › ';

/** Joins a heading path for display and indexing, e.g. `Runbooks › Database › Failover`. */
export function formatHeadingPath(path: readonly string[]): string {
  return path.join(HEADING_SEPARATOR);
}

/** The text to embed for a chunk: heading context first so that it influences retrieval. */
export function buildIndexText(headingPath: readonly string[], text: string): string {
  return headingPath.length === 0 ? text : `${formatHeadingPath(headingPath)}\n\n${text}`;
}

/** Throws a RangeError unless the options describe a usable chunk size and overlap. */
export function assertValidChunkerOptions(options: ChunkerOptions): void {
  const { maxChars, overlapChars } = options;
  if (!Number.isInteger(maxChars) || maxChars < 1) {
    throw new RangeError(`maxChars must be an integer >= 1, got ${maxChars}`);
  }
  if (!Number.isFinite(overlapChars) || overlapChars < 0 || overlapChars >= maxChars) {
    throw new RangeError(`overlapChars must be >= 0 and < maxChars (${maxChars}), got ${overlapChars}`);
  }
}
