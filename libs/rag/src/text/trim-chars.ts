/**
 * Trimming by a set of characters, in linear time. A pattern such as `/[.,;]+$/` or `/\s+$/` is
 * quadratic on a long run of those characters followed by anything else (the engine retries the run
 * from each of its positions), so text that a model or a user wrote is trimmed with these instead.
 */

/** Whitespace as `\s` sees it (the same set String.prototype.trim removes). */
export function isWhitespace(character: string): boolean {
  return character.trim() === '';
}

/** `text` without the trailing characters for which `drop` is true. */
export function trimEndWhere(text: string, drop: (character: string) => boolean): string {
  let end = text.length;
  while (end > 0 && drop(text[end - 1])) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without the leading characters for which `drop` is true. */
export function trimStartWhere(text: string, drop: (character: string) => boolean): string {
  let start = 0;
  while (start < text.length && drop(text[start])) start++;
  return start === 0 ? text : text.slice(start);
}

/** `text` without the leading and trailing characters that appear in `characters`. */
export function trimChars(text: string, characters: string): string {
  const drop = (character: string): boolean => characters.includes(character);
  return trimStartWhere(trimEndWhere(text, drop), drop);
}

/** `text` without the trailing characters that appear in `characters`. */
export function trimCharsEnd(text: string, characters: string): string {
  return trimEndWhere(text, (character) => characters.includes(character));
}

/** The trailing run of `text` made of characters in `characters` ('' when there is none). */
export function trailingChars(text: string, characters: string): string {
  return text.slice(trimCharsEnd(text, characters).length);
}
