import { assertValidChunkerOptions, buildIndexText } from './chunk';
import type { Chunk, ChunkerOptions } from './chunk';
import { splitSentences } from './sentence-splitter';
import type { TextSpan } from './text-span';
import { splitOnWordBoundaries } from './word-splitter';

/** Where a text sits inside a larger document, for chunking one section of it. */
export interface ChunkBase {
  /** Offset of `source` within the full document; chunk offsets are reported relative to the document. */
  offset: number;
  headingPath: string[];
  anchor: string | null;
}

/** Sentences, with any sentence longer than `maxChars` replaced by its word-boundary pieces. */
function packingUnits(source: string, maxChars: number): TextSpan[] {
  const units: TextSpan[] = [];
  for (const sentence of splitSentences(source)) {
    if (sentence.end - sentence.start <= maxChars) {
      units.push(sentence);
    } else {
      units.push(...splitOnWordBoundaries(source, sentence.start, sentence.end, maxChars));
    }
  }
  return units;
}

/** Index ranges `[first, last]` of units forming each chunk. */
function packUnits(units: readonly TextSpan[], maxChars: number, overlapChars: number): [number, number][] {
  const ranges: [number, number][] = [];
  let first = 0;
  while (first < units.length) {
    let last = first;
    while (last + 1 < units.length && units[last + 1].end - units[first].start <= maxChars) {
      last++;
    }
    ranges.push([first, last]);
    const next = last + 1;
    if (next >= units.length) break;

    const chunkEnd = units[last].end;
    let overlapStart = next;
    while (overlapStart - 1 >= first && chunkEnd - units[overlapStart - 1].start <= overlapChars) {
      overlapStart--;
    }
    // The next chunk must take at least one new unit, so give up overlap that would leave no room for it.
    const nextEnd = units[next].end;
    while (overlapStart < next && nextEnd - units[overlapStart].start > maxChars) overlapStart++;
    first = overlapStart;
  }
  return ranges;
}

/**
 * Chunks text by packing whole sentences greedily up to `maxChars` (measured as `end - start` of the span).
 * Each chunk after the first repeats the trailing sentences of its predecessor that fit within `overlapChars`
 * (measured from the first repeated sentence to the end of the predecessor), but always adds at least one new
 * sentence. Sentences are only cut when a single sentence exceeds `maxChars`: then at whitespace, and inside a
 * word only when that word alone exceeds `maxChars`.
 *
 * With `base`, `source` is one section of a larger document starting at `base.offset`; offsets are reported
 * relative to the document and every chunk carries the section's heading path and anchor.
 */
export function chunkBySentences(
  documentId: string,
  source: string,
  options: ChunkerOptions,
  base?: ChunkBase,
): Chunk[] {
  assertValidChunkerOptions(options);
  const offset = base?.offset ?? 0;
  const headingPath = base?.headingPath ?? [];
  const anchor = base?.anchor ?? null;
  const units = packingUnits(source, options.maxChars);
  return packUnits(units, options.maxChars, options.overlapChars).map(([first, last], ordinal) => {
    const start = units[first].start;
    const end = units[last].end;
    const text = source.slice(start, end);
    return {
      documentId,
      ordinal,
      start: offset + start,
      end: offset + end,
      text,
      headingPath: [...headingPath],
      anchor,
      indexText: buildIndexText(headingPath, text),
    };
  });
}
