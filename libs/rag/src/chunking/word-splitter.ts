import type { TextSpan } from './text-span';

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Where to hard-cut `[start, ...)` so the piece has at most `maxChars` units and no surrogate pair is torn. */
function hardCutEnd(text: string, start: number, end: number, maxChars: number): number {
  let cut = Math.min(start + maxChars, end);
  if (
    cut < end &&
    cut - 1 > start &&
    isHighSurrogate(text.charCodeAt(cut - 1)) &&
    isLowSurrogate(text.charCodeAt(cut))
  ) {
    cut--;
  }
  return cut;
}

/**
 * Splits `text[start, end)` into consecutive pieces of at most `maxChars` characters, cutting only at
 * whitespace. A single word longer than `maxChars` is cut hard. Pieces never start or end with whitespace.
 */
export function splitOnWordBoundaries(
  text: string,
  start: number,
  end: number,
  maxChars: number,
): TextSpan[] {
  const pieces: TextSpan[] = [];
  let piece: TextSpan | null = null;
  const words = /\S+/g;
  words.lastIndex = start;
  for (let match = words.exec(text); match !== null && match.index < end; match = words.exec(text)) {
    let wordStart = match.index;
    const wordEnd = Math.min(match.index + match[0].length, end);
    if (piece && wordEnd - piece.start <= maxChars) {
      piece.end = wordEnd;
      continue;
    }
    if (piece) pieces.push(piece);
    while (wordEnd - wordStart > maxChars) {
      const cut = hardCutEnd(text, wordStart, wordEnd, maxChars);
      pieces.push({ start: wordStart, end: cut });
      wordStart = cut;
    }
    piece = { start: wordStart, end: wordEnd };
    if (wordEnd === end) break;
  }
  if (piece) pieces.push(piece);
  return pieces;
}
