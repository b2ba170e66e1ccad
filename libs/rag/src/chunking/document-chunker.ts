import { buildIndexText } from './chunk';
import type { Chunk } from './chunk';
import { trimSpan } from './text-span';
import { splitOnWordBoundaries } from './word-splitter';

/**
 * The whole document as a single indexing unit: one chunk spanning the source without surrounding whitespace,
 * or none for a blank source. With `maxChars`, a longer document is truncated at the last word boundary that
 * fits (mid-word only when the first word alone is longer).
 */
export function chunkWholeDocument(documentId: string, source: string, maxChars?: number): Chunk[] {
  if (maxChars !== undefined && (!Number.isInteger(maxChars) || maxChars < 1)) {
    throw new RangeError(`maxChars must be an integer >= 1, got ${maxChars}`);
  }
  let span = trimSpan(source, 0, source.length);
  if (!span) return [];
  if (maxChars !== undefined && span.end - span.start > maxChars) {
    span = splitOnWordBoundaries(source, span.start, span.end, maxChars)[0];
  }
  const text = source.slice(span.start, span.end);
  return [
    {
      documentId,
      ordinal: 0,
      start: span.start,
      end: span.end,
      text,
      headingPath: [],
      anchor: null,
      indexText: buildIndexText([], text),
    },
  ];
}
