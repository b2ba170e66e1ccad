import { NOT_FOUND_SENTENCES } from '@lumina/shared';

/** Every language's not-found sentence (NOT_FOUND_SENTENCE and its translations), normalised. */
const CANONICAL = Object.values(NOT_FOUND_SENTENCES).map((sentence) =>
  normalise(sentence).replace(/[.。।]$/u, ''),
);

/**
 * True when an answer begins with a not-found sentence (NOT_FOUND_SENTENCE or its translation in
 * NOT_FOUND_SENTENCES) — the model's way of saying the passages lack the answer. Case, spacing, quotes,
 * Markdown emphasis, "don't" for "do not" and the final period are forgiven; the sentence must come first.
 */
export function startsWithNotFound(answer: string): boolean {
  const text = normalise(answer);
  return CANONICAL.some((sentence) => text.startsWith(sentence));
}

function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/\bdon't\b/g, 'do not')
    .replace(/^[\s>*_"'“”「」#-]+/, '')
    .replace(/[*_"“”「」]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
