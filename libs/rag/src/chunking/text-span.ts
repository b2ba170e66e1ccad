/** Half-open range `[start, end)` of character offsets into a text. */
export interface TextSpan {
  start: number;
  end: number;
}

const WHITESPACE = /\s/;

export function isWhitespace(char: string | undefined): boolean {
  return char !== undefined && WHITESPACE.test(char);
}

/** Narrows `[start, end)` so that it neither starts nor ends with whitespace; null when nothing is left. */
export function trimSpan(text: string, start: number, end: number): TextSpan | null {
  let from = start;
  let to = end;
  while (from < to && isWhitespace(text[from])) from++;
  while (to > from && isWhitespace(text[to - 1])) to--;
  return from < to ? { start: from, end: to } : null;
}
