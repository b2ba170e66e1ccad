import { NOT_FOUND_SENTENCES, notFoundSentence } from '@lumina/shared';
import type { SearchResult } from '../../pipeline/search-result';
import type { AnswerRun } from './answer-run';

/**
 * Where refusal is decided, for the chat, the evaluations and the web (which shows the chat's
 * `notFound`). An answer refuses (`notFound`) when:
 * 1. the search refuses (refusesBeforeWriting): nothing was found, nothing passed the similarity
 *    threshold, or the answerability decision says the documents do not answer; no writer runs;
 * 2. else the writer finds nothing to say: the model's answer starts with the not-found sentence
 *    (startsWithNotFound), or the extractive answerer finds no sentence close enough to quote.
 * A refusal is the not-found sentence, in the language the search decided for the question.
 */
export function refusesBeforeWriting(
  search: Pick<SearchResult, 'belowThreshold' | 'results' | 'answerability'>,
): boolean {
  return search.belowThreshold || search.results.length === 0 || search.answerability?.answerable === false;
}

/** Refuses: the not-found sentence in the question's language is the answer, written out. */
export function refuse(run: AnswerRun): void {
  const { outcome } = run;
  outcome.notFound = true;
  outcome.text = notFoundSentence(outcome.search?.language);
  run.emit(outcome.text);
}

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
