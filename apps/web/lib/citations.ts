import type { Citation, PageRange, RetrievedPassage } from '@lumina/shared';

/** "p. 12" for one page, "pp. 12–13" for a range; '' for an unpaged source. */
export function formatPages(pages: PageRange | undefined | null): string {
  if (!pages) return '';
  return pages.first === pages.last ? `p. ${pages.first}` : `pp. ${pages.first}–${pages.last}`;
}

export type AnswerSegment =
  | { type: 'text'; text: string }
  /** `[n]` in the answer: `start` is where the marker begins in the answer text. */
  | { type: 'marker'; marker: number; start: number };

/** `[1]`, `[2, 3]` and `[2][3]` (each number its own marker). Years like [2024] are not markers. */
const MARKER_GROUP = /\[(\d{1,2}(?:\s*,\s*\d{1,2})*)\]/g;

/** Splits answer text into plain text and citation markers, in order. */
export function segmentAnswer(text: string): AnswerSegment[] {
  const segments: AnswerSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(MARKER_GROUP)) {
    const start = match.index;
    if (start > last) segments.push({ type: 'text', text: text.slice(last, start) });
    for (const part of match[1].split(',')) {
      segments.push({ type: 'marker', marker: Number(part.trim()), start });
    }
    last = start + match[0].length;
  }
  if (last < text.length) segments.push({ type: 'text', text: text.slice(last) });
  return segments;
}

export interface ResolvedCitation {
  marker: number;
  citation: Citation | null;
  /** The retrieved passage the marker names, when the answer's retrieval is known. */
  passage: RetrievedPassage | null;
  /** The server dropped this marker: it named no passage. */
  dropped: boolean;
}

/**
 * What a marker points to. Passages are given to the model numbered [1]..[n] in retrieval order, so
 * while the answer streams (before the `citations` event) marker n is the n-th passage; after it the
 * server's mapping decides, and markers it dropped point nowhere.
 */
export function resolveMarker(
  marker: number,
  citations: readonly Citation[],
  passages: readonly RetrievedPassage[],
  dropped: readonly number[],
  citationsKnown: boolean,
): ResolvedCitation {
  if (dropped.includes(marker)) return { marker, citation: null, passage: null, dropped: true };
  const citation = citations.find((item) => item.marker === marker) ?? null;
  if (citation) {
    const passage = passages.find((item) => item.chunkId === citation.chunkId) ?? null;
    return { marker, citation, passage, dropped: false };
  }
  if (citationsKnown) return { marker, citation: null, passage: null, dropped: true };
  return { marker, citation: null, passage: passages[marker - 1] ?? null, dropped: false };
}

/** Where a passage's text starts and ends in its document (character offsets), when known. */
export interface PassageOffsets {
  spanStart: number | null;
  spanEnd: number | null;
}

/** A retrieved passage's offsets: its span, or unknown when the span is empty. */
export function passageOffsets(passage: Pick<RetrievedPassage, 'span'>): PassageOffsets {
  const { start, end } = passage.span;
  return end > start ? { spanStart: start, spanEnd: end } : { spanStart: null, spanEnd: null };
}

/** The sentence of `text` around `index` (used to find what a marker supports). */
export function sentenceAround(text: string, index: number): string {
  const before = text.slice(0, index);
  const startMatch = /[.!?\n][^.!?\n]*$/.exec(before);
  const start = startMatch ? startMatch.index + 1 : 0;
  const afterMatch = /[.!?\n]/.exec(text.slice(index));
  const end = afterMatch ? index + afterMatch.index + 1 : text.length;
  return text
    .slice(start, end)
    .replace(MARKER_GROUP, '')
    .replace(/\s+([.!?,;:])/g, '$1')
    .trim();
}

export interface TextRange {
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}]+/gu;
const STOP_WORDS = new Set(
  'a an and are as at be by for from has have in is it its of on or that the their this to was were will with'.split(
    ' ',
  ),
);

function contentWords(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).filter((word) => word.length > 1 && !STOP_WORDS.has(word));
}

/** Sentence ranges of a passage. */
export function sentenceRanges(text: string): TextRange[] {
  const ranges: TextRange[] = [];
  const pattern = /[^.!?\n]+[.!?]*/g;
  for (const match of text.matchAll(pattern)) {
    const raw = match[0];
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (trimmed.length === 0) continue;
    ranges.push({ start: match.index + lead, end: match.index + lead + trimmed.length });
  }
  return ranges;
}

/** The passage sentence sharing the most content words (at least two) with `claim`. */
export function bestMatchingSentence(passageText: string, claim: string): TextRange | null {
  const wanted = new Set(contentWords(claim));
  if (wanted.size === 0) return null;
  let best: TextRange | null = null;
  let bestScore = 0;
  for (const range of sentenceRanges(passageText)) {
    const words = new Set(contentWords(passageText.slice(range.start, range.end)));
    let shared = 0;
    for (const word of words) if (wanted.has(word)) shared += 1;
    const score = shared / Math.sqrt(words.size || 1);
    if (shared >= 2 && score > bestScore) {
      best = range;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The part of a passage a citation points at. The server's span (document characters) is used when
 * it names part of the passage; when it names the whole passage (or nothing), the passage sentence
 * that shares the most words with the answer sentence carrying the marker is singled out.
 */
export function citedRange(
  passageText: string,
  citation: Pick<Citation, 'span'> | null,
  passage: PassageOffsets | null,
  claim: string,
): TextRange | null {
  const span = citation?.span;
  let fromSpan: TextRange | null = null;
  if (span && span.end > span.start) {
    const base = passage?.spanStart;
    if (base !== null && base !== undefined && span.start >= base && span.end - base <= passageText.length) {
      fromSpan = { start: span.start - base, end: span.end - base };
    } else if (base === null || base === undefined) {
      if (span.end <= passageText.length) fromSpan = { start: span.start, end: span.end };
    }
  }
  const wholePassage =
    fromSpan !== null && fromSpan.start === 0 && fromSpan.end >= passageText.trimEnd().length;
  if (fromSpan && !wholePassage) return fromSpan;
  return bestMatchingSentence(passageText, claim) ?? fromSpan;
}

/**
 * The text a marker closes, as the answer quotes it: its paragraph's text since the previous marker (a
 * marker right after another, "[1][2]", closes the same text), markers removed. For an offline answer
 * this is the quoted sentences, or a table's header and row.
 */
export function quoteBefore(text: string, index: number): string {
  const paragraphStart = text.lastIndexOf('\n\n', index);
  const paragraph = text.slice(paragraphStart < 0 ? 0 : paragraphStart + 2, index);
  const pieces = paragraph.split(MARKER_GROUP_SPLIT);
  for (let i = pieces.length - 1; i >= 0; i -= 1) {
    if (/[\p{L}\p{N}]/u.test(pieces[i])) return pieces[i].trim();
  }
  return '';
}

const MARKER_GROUP_SPLIT = /\[\d{1,2}(?:\s*,\s*\d{1,2})*\]/;

interface WordAt {
  word: string;
  start: number;
  end: number;
}

function wordsAt(text: string): WordAt[] {
  return [...text.matchAll(WORD)].map((match) => ({
    word: match[0].toLowerCase(),
    start: match.index,
    end: match.index + match[0].length,
  }));
}

/** Fewer words than this are found anywhere: a shorter piece of a quote is not looked for. */
const MIN_QUOTE_WORDS = 3;

/**
 * Where a passage holds a quote: each line and sentence of the quote (a "…" cut ends one) found as a
 * run of the passage's words, Markdown punctuation and spacing aside; neighbouring runs merged. Empty
 * when no piece of at least three words is found.
 */
export function quotedRanges(passageText: string, quote: string): TextRange[] {
  const passage = wordsAt(passageText);
  const lines: WordAt[][] = [];
  let lineStart = 0;
  for (const line of passageText.split('\n')) {
    lines.push(passage.filter((w) => w.start >= lineStart && w.end <= lineStart + line.length));
    lineStart += line.length + 1;
  }
  const found: TextRange[] = [];
  const push = (first: WordAt, last: WordAt) => {
    let end = last.end;
    while (end < passageText.length && /[.!?:;,)`*_。！？]/.test(passageText[end])) end += 1;
    found.push({ start: first.start, end });
  };
  for (const piece of quote.split(/\n|…|(?<=[.!?。！？])\s+/)) {
    const wanted = (piece.toLowerCase().match(WORD) ?? []) as string[];
    if (wanted.length === 0) continue;
    if (wanted.length < MIN_QUOTE_WORDS) {
      // A short piece (a table's header) counts only as a whole line of the passage.
      const line = lines.find(
        (words) => words.length === wanted.length && words.every((w, j) => w.word === wanted[j]),
      );
      if (line) push(line[0], line[line.length - 1]);
      continue;
    }
    for (let i = 0; i + wanted.length <= passage.length; i += 1) {
      if (wanted.every((word, j) => passage[i + j].word === word)) {
        push(passage[i], passage[i + wanted.length - 1]);
        break;
      }
    }
  }
  found.sort((a, b) => a.start - b.start);
  const merged: TextRange[] = [];
  for (const range of found) {
    const last = merged.at(-1);
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else if (
      last &&
      /^[\s|>*_`-]*$/.test(passageText.slice(last.end, range.start)) &&
      !passageText.slice(last.end, range.start).includes('\n\n')
    )
      last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

/**
 * The parts of a passage a marker points at: where the passage holds the quote the marker closes; else
 * the one range `citedRange` finds (the server's span, or the sentence sharing most words with the claim).
 */
export function citedRanges(
  passageText: string,
  citation: Pick<Citation, 'span'> | null,
  passage: PassageOffsets | null,
  quote: string,
  claim: string,
): TextRange[] {
  const quoted = quote ? quotedRanges(passageText, quote) : [];
  if (quoted.length > 0) return quoted;
  const range = citedRange(passageText, citation, passage, claim);
  return range ? [range] : [];
}
