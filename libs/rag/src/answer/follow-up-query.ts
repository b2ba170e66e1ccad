import { feedbackTerms } from '../expansion/pseudo-relevance-feedback';
import type { SearchResult } from '../pipeline/search-result';
import { historyStandaloneQuery } from './standalone-query';
import type { HistoryTurn } from './standalone-query';

import type { FollowUpReason } from '@lumina/shared';

export type { FollowUpReason };

/**
 * How a follow-up that points back is searched. Chosen by measurement on the multi-turn gold set
 * (train half only; `npm run eval -- --suite conversations --split train`).
 */
export interface FollowUpRule {
  /**
   * The search with the earlier question leads when its P(answerable) is above the question alone's by
   * more than this (above 1: it never leads, its passages only fill in).
   */
  leadMargin: number;
  /** Passages of the leading search kept on top before the other searches' passages fill the rest. */
  leadPassages: number;
  /** Earlier questions added. */
  turns: number;
  /**
   * Words of the earlier answer's cited passages added to the question in a third search, which fills
   * the ranks under the leading passages (it never leads); 0: no such search.
   */
  citedTerms: number;
}

/**
 * Chosen on the train half of the docs gold set's conversations: the search with the earlier question
 * leads when it is more answerable than the question alone by more than 0.1; the leading search keeps
 * its best 2 passages, then the question with the 2 words that best characterise the earlier answer's
 * cited passages and the other search take turns filling the rest. Re-chosen when the hybrid moved to
 * convex score fusion: every topic switch kept its own top passage at margins 0.1–0.2 (45 of 46 at 0 and
 * 0.05); 2 leading passages reached 43 of 46 follow-ups against 42 with 3 (3 was best under RRF); 1–3
 * cited words tie (43), and 2 was the best under RRF (more words pull the question away from its own).
 */
export const DEFAULT_FOLLOW_UP_RULE: Readonly<FollowUpRule> = Object.freeze({
  leadMargin: 0.1,
  leadPassages: 2,
  turns: 1,
  citedTerms: 2,
});

/**
 * Pronouns and references that point at an earlier turn (English): "it", "they", "those", "that
 * option", "the second one", "the former", "mine". A dummy "it" ("is it ok to …") counts too: the rule
 * weighs both searches' answerability before the earlier question leads. "there", "one" and "the same"
 * alone were measured to flag more topic switches than follow-ups.
 */
const REFERS_BACK =
  /\b(?:it|its|they|them|their|this|that|these|those|former|latter|mine|the (?:first|second|third|last|other) one)\b/i;

/** Whether a question points back at an earlier turn. */
export function refersBack(question: string): boolean {
  return REFERS_BACK.test(question);
}

/** What the rule read: the reference, and P(answerable) of each search (null: no model decided). */
export interface FollowUpEvidence {
  refersBack: boolean;
  /** P(answerable) of the question searched alone. */
  answerability: number | null;
  /** P(answerable) of the question searched with the earlier question; null when not searched. */
  withEarlier: number | null;
}

/** Which search leads, and the passages the follow-up gets. */
export interface FollowUpCombination {
  reason: Extract<FollowUpReason, 'refers-back' | 'alone-leads'>;
  /**
   * The leading search's result (its answerability verdict, threshold decision and trace are kept: a
   * refusal is decided on the leading query's own evidence), with its best `leadPassages` passages on top
   * and the other searches' passages filling the rest.
   */
  result: SearchResult;
}

/**
 * The follow-up rule, pure: the search with the earlier question leads when it is clearly more
 * answerable than the question alone (or when no answerability model decided); otherwise the question's
 * own search leads, so a topic switch with a dummy "it" keeps its own top passage. Under the leading
 * passages, the search with the earlier answer's cited words (when there is one) and the search that did
 * not lead take turns, in that order. The cited-words search never leads: its added words come from the
 * documents, so its answerability is not the question's.
 */
export function combineFollowUp(
  alone: SearchResult,
  withEarlier: SearchResult,
  rule: FollowUpRule = DEFAULT_FOLLOW_UP_RULE,
  withCited: SearchResult | null = null,
): FollowUpCombination {
  const a = alone.answerability?.score ?? null;
  const e = withEarlier.answerability?.score ?? null;
  const earlierLeads = a === null || e === null || e > a + rule.leadMargin;
  const [lead, other] = earlierLeads ? [withEarlier, alone] : [alone, withEarlier];
  const fillers = withCited ? [withCited.results, other.results] : [other.results];
  return {
    reason: earlierLeads ? 'refers-back' : 'alone-leads',
    result: {
      ...lead,
      results: interleaveLeading(lead.results, fillers, rule.leadPassages),
    },
  };
}

/**
 * The leading list's first `leadPassages` items, then the other lists taking turns (each its next item
 * not already taken), then the leading list's rest, each passage once, as many as the longest list holds.
 */
export function interleaveLeading<T extends { chunkId: string }>(
  lead: readonly T[],
  others: readonly (readonly T[])[],
  leadPassages: number,
): T[] {
  const size = Math.max(lead.length, ...others.map((list) => list.length));
  const out: T[] = [];
  const seen = new Set<string>();
  const add = (item: T) => {
    seen.add(item.chunkId);
    out.push(item);
  };
  for (const item of lead.slice(0, Math.max(0, leadPassages))) if (!seen.has(item.chunkId)) add(item);
  const next = others.map(() => 0);
  let added = true;
  while (added && out.length < size) {
    added = false;
    others.forEach((list, i) => {
      if (out.length >= size) return;
      while (next[i]! < list.length && seen.has(list[next[i]!]!.chunkId)) next[i]!++;
      if (next[i]! < list.length) {
        add(list[next[i]!++]!);
        added = true;
      }
    });
  }
  for (const item of lead) {
    if (out.length >= size) break;
    if (!seen.has(item.chunkId)) add(item);
  }
  return out;
}

/**
 * The question with the `count` words that best characterise the earlier answer's cited passages
 * (relevance feedback, as offline query expansion weighs them: frequent in the passages, not stop words,
 * not already in the question); null when the last answer cited nothing (or `count` is 0).
 */
export function citedWordsQuery(
  history: readonly HistoryTurn[],
  question: string,
  count: number,
): string | null {
  if (count <= 0) return null;
  const answer = [...history].reverse().find((turn) => turn.role === 'assistant');
  const passages = answer?.citedPassages ?? [];
  if (passages.length === 0) return null;
  const terms = feedbackTerms(
    question,
    passages.map((text) => ({ text, score: 1 })),
    count,
  );
  return terms.length > 0 ? `${question.trim()} ${terms.join(' ')}` : null;
}

export interface FollowUpSearch {
  /** The leading query: the question itself, or the question with the earlier question added. */
  query: string;
  /** The question with the earlier question added, when it was searched too; null otherwise. */
  contextQuery: string | null;
  /** The question with the earlier answer's cited words, when it was searched too; null otherwise. */
  citedQuery: string | null;
  reason: FollowUpReason;
  evidence: FollowUpEvidence;
  /** The follow-up's passages and the leading search's verdict. */
  result: SearchResult;
  /** Each search on its own (for measurement): the question alone, with the earlier question, with the cited words. */
  alone: SearchResult;
  withEarlier: SearchResult | null;
  withCited: SearchResult | null;
}

/**
 * The offline follow-up: the question is searched on its own first. Only when it points back is it
 * searched with the earlier question too, and with the words of the passages the earlier answer cited,
 * and the searches are combined by `combineFollowUp`. A question that names its own topic never gets the
 * earlier turn's words or passages.
 */
export async function searchFollowUp(
  question: string,
  history: readonly HistoryTurn[],
  search: (query: string) => Promise<SearchResult>,
  rule: FollowUpRule = DEFAULT_FOLLOW_UP_RULE,
): Promise<FollowUpSearch> {
  const alone = await search(question);
  const evidence: FollowUpEvidence = {
    refersBack: refersBack(question),
    answerability: alone.answerability?.score ?? null,
    withEarlier: null,
  };
  const standsAlone = {
    query: question,
    contextQuery: null,
    citedQuery: null,
    reason: 'stands-alone' as const,
    evidence,
    result: alone,
    alone,
    withEarlier: null,
    withCited: null,
  };
  if (!evidence.refersBack) return standsAlone;
  const contextQuery = historyStandaloneQuery(history, question, rule.turns);
  if (contextQuery === question) return standsAlone;
  const citedQuery = citedWordsQuery(history, question, rule.citedTerms);
  const [withEarlier, withCited] = await Promise.all([
    search(contextQuery),
    citedQuery === null ? null : search(citedQuery),
  ]);
  evidence.withEarlier = withEarlier.answerability?.score ?? null;
  const combined = combineFollowUp(alone, withEarlier, rule, withCited);
  return {
    query: combined.reason === 'refers-back' ? contextQuery : question,
    contextQuery,
    citedQuery,
    reason: combined.reason,
    evidence,
    result: combined.result,
    alone,
    withEarlier,
    withCited,
  };
}
