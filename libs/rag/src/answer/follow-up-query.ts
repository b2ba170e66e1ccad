import type { SearchResult } from '../pipeline/search-result';
import { fallbackTerms } from './extractive-answerer';
import { historyStandaloneQuery } from './standalone-query';
import type { HistoryTurn } from './standalone-query';

import type { FollowUpReason } from '@lumina/shared';

export type { FollowUpReason };

/** What the question alone tells: the signals the rule reads. */
export interface FollowUpSignals {
  /** A pronoun or reference that points back ("it", "that option", "the second one"). */
  refersBack: boolean;
  /** The question's words the index finds rare (idf at least `minSalientIdf`), or never uses. */
  salientTerms: number;
  /** P(answerable) of the question's own search; null when no answerability model decided. */
  answerability: number | null;
}

/** When the earlier turn is added. Chosen by measurement on the multi-turn gold set (train half). */
export interface FollowUpRule {
  /**
   * Add it when the question points back and its own search's P(answerable) is below this (0: never;
   * above 1: whenever it points back). A dummy "it" in a question naming its topic reads as answerable.
   */
  referenceBelow: number;
  /** Add it when the question has at most this many salient words (−1: never for this reason). */
  maxSalientTerms: number;
  /** Add it when the question's own P(answerable) is below this (0: never for this reason). */
  minAnswerability: number;
  /** A word counts as salient at or above this idf (BM25's, over the index's chunks). */
  minSalientIdf: number;
  /** Earlier questions added. */
  turns: number;
}

/**
 * Chosen on the train half of the docs gold set's conversations (`npm run eval -- --suite
 * conversations`): a reference adds the earlier turn when the question's own P(answerable) is under
 * 0.7; the salient-word and answerability reasons alone added it to more topic switches than follow-ups
 * they rescued, so they are off.
 */
export const DEFAULT_FOLLOW_UP_RULE: Readonly<FollowUpRule> = Object.freeze({
  referenceBelow: 0.7,
  maxSalientTerms: -1,
  minAnswerability: 0,
  minSalientIdf: 1,
  turns: 1,
});

/**
 * Pronouns and references that point at an earlier turn (English): "it", "they", "those", "that
 * option", "the second one", "the former", "mine". A dummy "it" ("is it ok to …") counts too: the rule
 * weighs it with the question's own answerability. "there", "one" and "the same" alone were measured to
 * flag more topic switches than follow-ups.
 */
const REFERS_BACK =
  /\b(?:it|its|they|them|their|this|that|these|those|former|latter|mine|the (?:first|second|third|last|other) one)\b/i;

/** What the question's own search says, before any threshold: the rule's evidence. */
export interface FollowUpEvidence {
  refersBack: boolean;
  /** The question's words as the index analysed them (null without an answerability verdict). */
  terms: { df: number; idf: number }[] | null;
  /** The question's words without stop words, when the index did not analyse them. */
  fallbackTerms: number;
  answerability: number | null;
}

export function followUpEvidence(
  question: string,
  alone: Pick<SearchResult, 'answerability'>,
): FollowUpEvidence {
  return {
    refersBack: REFERS_BACK.test(question),
    terms: alone.answerability?.terms.map((t) => ({ df: t.df, idf: t.idf })) ?? null,
    fallbackTerms: fallbackTerms(question).length,
    answerability: alone.answerability?.score ?? null,
  };
}

/** The signals at a salience threshold: a word is salient at or above `minSalientIdf`, or when unused. */
export function followUpSignals(evidence: FollowUpEvidence, minSalientIdf: number): FollowUpSignals {
  return {
    refersBack: evidence.refersBack,
    salientTerms: evidence.terms
      ? evidence.terms.filter((t) => t.df === 0 || t.idf >= minSalientIdf).length
      : evidence.fallbackTerms,
    answerability: evidence.answerability,
  };
}

/** The reason to add the earlier turn, or `stands-alone`; a reference is read first. */
export function followUpReason(signals: FollowUpSignals, rule: FollowUpRule): FollowUpReason {
  if (signals.refersBack && (signals.answerability === null || signals.answerability < rule.referenceBelow))
    return 'refers-back';
  if (signals.salientTerms <= rule.maxSalientTerms) return 'no-salient-terms';
  if (signals.answerability !== null && signals.answerability < rule.minAnswerability)
    return 'low-answerability';
  return 'stands-alone';
}

export interface FollowUpSearch {
  /** What was searched. */
  query: string;
  reason: FollowUpReason;
  evidence: FollowUpEvidence;
  /** The search of `query`. */
  result: SearchResult;
}

/**
 * The offline follow-up: the question is searched on its own first; the earlier question(s) are added
 * (and searched) only when the rule says it cannot stand alone. Earlier topics never leak into a
 * question that names its own.
 */
export async function searchFollowUp(
  question: string,
  history: readonly HistoryTurn[],
  search: (query: string) => Promise<SearchResult>,
  rule: FollowUpRule = DEFAULT_FOLLOW_UP_RULE,
): Promise<FollowUpSearch> {
  const alone = await search(question);
  const evidence = followUpEvidence(question, alone);
  const reason = followUpReason(followUpSignals(evidence, rule.minSalientIdf), rule);
  if (reason === 'stands-alone') return { query: question, reason, evidence, result: alone };
  const query = historyStandaloneQuery(history, question, rule.turns);
  if (query === question) return { query, reason: 'stands-alone', evidence, result: alone };
  return { query, reason, evidence, result: await search(query) };
}
