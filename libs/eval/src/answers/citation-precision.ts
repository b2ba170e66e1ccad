import { MARKER_GROUP, markerNumbers } from '@lumina/rag';

/** One marker written in an answer and the text it closes. */
export interface MarkerQuote {
  marker: number;
  quote: string;
}

/** An answer's markers checked against the passages they open. */
export interface CitationCheck {
  /** Markers written (each occurrence once; fenced code is not read). */
  markers: number;
  /** Markers whose cited passage holds the text they close. */
  precise: number;
  /** The markers that open no passage, or one that does not hold their quote. */
  imprecise: number[];
}

const FENCED_CODE = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm;

/**
 * Each marker of an answer with the text it closes: the paragraph's text since the previous marker (a
 * group written right after another, "[1][2]", closes the same text). Fenced code is skipped: `a[1]`
 * inside it is not a marker.
 */
export function markerQuotes(answer: string): MarkerQuote[] {
  const quotes: MarkerQuote[] = [];
  for (const paragraph of answer.replace(FENCED_CODE, '').split(/\n\s*\n/)) {
    let last = 0;
    let previous = '';
    for (const match of paragraph.matchAll(MARKER_GROUP)) {
      const own = paragraph.slice(last, match.index).trim();
      const quote = own || previous;
      previous = quote;
      last = match.index + match[0].length;
      for (const marker of markerNumbers(match[1])) quotes.push({ marker, quote });
    }
  }
  return quotes;
}

/** The words of a text: lower case, letters and digits (Markdown punctuation and spacing aside). */
function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Shortest run of words that counts as quoted from a passage (a shorter piece is found anywhere). */
const MIN_RUN_WORDS = 3;

/**
 * True when `passage` holds `quote`: the quote is made of runs of the passage's words, each at least
 * three words long (or the whole piece when shorter), in any order. Quoted sentences of one passage are
 * joined with a space, so their boundaries are not known; table cells joined by " — " read as the row;
 * a table quoted as its header and one row holds each of its lines (the header is not next to the row
 * in the passage); a sentence cut with "…" may end inside a word. An empty quote is held by nothing.
 */
export function passageHoldsQuote(passage: string, quote: string): boolean {
  const haystack = ` ${words(passage).join(' ')} `;
  const lines = quote.split('\n');
  if (lines.length > 1 && lines.every((line) => /^\s*\|/.test(line))) {
    return (
      words(quote).length > 0 &&
      lines.every((line) => words(line).length === 0 || passageHoldsQuote(passage, line))
    );
  }
  const pieces = quote.split('…').map((piece, i, all) => ({ words: words(piece), cut: i < all.length - 1 }));
  if (pieces.every((piece) => piece.words.length === 0)) return false;
  return pieces.every(({ words: w, cut }) => {
    let i = 0;
    while (i < w.length) {
      const found = (j: number) => {
        const open = cut && j === w.length;
        return haystack.includes(` ${w.slice(i, j).join(' ')}${open ? '' : ' '}`);
      };
      let j = i;
      while (j < w.length && found(j + 1)) j++;
      if (j - i < Math.min(MIN_RUN_WORDS, w.length - i) || j === i) return false;
      i = j;
    }
    return true;
  });
}

/**
 * Checks every marker of an answer: the citation it resolved to (by marker) must open a passage whose
 * text holds the quote the marker closes. A marker without a citation counts as imprecise.
 */
export function checkCitations(
  answer: string,
  citations: readonly { marker: number; chunkId: string }[],
  passageText: (chunkId: string) => string | undefined,
): CitationCheck {
  const quotes = markerQuotes(answer);
  const imprecise: number[] = [];
  for (const { marker, quote } of quotes) {
    const citation = citations.find((c) => c.marker === marker);
    const text = citation ? passageText(citation.chunkId) : undefined;
    if (text === undefined || !passageHoldsQuote(text, quote)) imprecise.push(marker);
  }
  return { markers: quotes.length, precise: quotes.length - imprecise.length, imprecise };
}
