import { NOT_FOUND_SENTENCE } from '@lumina/shared';

const CANONICAL = normalise(NOT_FOUND_SENTENCE).replace(/\.$/, '');

/**
 * True when an answer begins with NOT_FOUND_SENTENCE — the model's way of saying the passages lack the
 * answer. Case, spacing, quotes, Markdown emphasis, "don't" for "do not" and the final period are
 * forgiven; the sentence must come first.
 */
export function startsWithNotFound(answer: string): boolean {
  return normalise(answer).startsWith(CANONICAL);
}

function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/\bdon't\b/g, 'do not')
    .replace(/^[\s>*_"'“”#-]+/, '')
    .replace(/[*_"“”]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
