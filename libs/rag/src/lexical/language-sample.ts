/** Characters of a document that language detection reads (chosen by measurement: README). */
export const LANGUAGE_SAMPLE_CHARS = 300;
const WINDOWS = 3;

/**
 * The part of a text that a language detector needs to see. A detector's cost grows with the length of
 * what it reads, while its accuracy stops growing after a few sentences; so a long document is read in
 * three windows, at its start, middle and end, each cut at spaces where the script has them. Reading
 * the document in several places keeps an English licence header or a German title from naming the
 * language of what follows.
 */
export function languageSample(text: string, chars = LANGUAGE_SAMPLE_CHARS): string {
  if (text.length <= chars) return text;
  const width = Math.floor(chars / WINDOWS);
  const windows: string[] = [];
  for (let i = 0; i < WINDOWS; i++) {
    const start = Math.floor(((text.length - width) * i) / (WINDOWS - 1));
    windows.push(wholeWords(text, start, start + width));
  }
  return windows.join('\n');
}

/** text[start, end), without the partial words at either edge when the window has spaces in it. */
function wholeWords(text: string, start: number, end: number): string {
  let slice = text.slice(start, end);
  if (start > 0 && !/\s/.test(text[start - 1]!)) {
    const first = slice.search(/\s/);
    if (first >= 0) slice = slice.slice(first + 1);
  }
  if (end < text.length && !/\s/.test(text[end]!)) {
    const last = Math.max(slice.lastIndexOf(' '), slice.lastIndexOf('\n'), slice.lastIndexOf('\t'));
    if (last > 0) slice = slice.slice(0, last);
  }
  return slice;
}
