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
  /** Passages of the leading search kept on top before the other search's passages fill the rest. */
  leadPassages: number;
  /** Earlier questions added. */
  turns: number;
}

/**
 * Chosen on the train half of the docs gold set's conversations: the search with the earlier question
 * leads when it is more answerable than the question alone by more than 0.05; the leading search keeps
 * its best 3 passages and the other's fill the rest. Every topic switch kept its own top passage at
 * margins 0–0.1; more than 3 leading passages crowded out the other search's reach.
 */
export const DEFAULT_FOLLOW_UP_RULE: Readonly<FollowUpRule> = Object.freeze({
  leadMargin: 0.05,
  leadPassages: 3,
  turns: 1,
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
   * and the other search's passages filling the rest.
   */
  result: SearchResult;
}

/**
 * The follow-up rule, pure: the search with the earlier question leads when it is clearly more
 * answerable than the question alone (or when no answerability model decided); otherwise the question's
 * own search leads, so a topic switch with a dummy "it" keeps its own top passage. Either way the other
 * search's passages fill the ranks under the leading ones.
 */
export function combineFollowUp(
  alone: SearchResult,
  withEarlier: SearchResult,
  rule: FollowUpRule = DEFAULT_FOLLOW_UP_RULE,
): FollowUpCombination {
  const a = alone.answerability?.score ?? null;
  const e = withEarlier.answerability?.score ?? null;
  const earlierLeads = a === null || e === null || e > a + rule.leadMargin;
  const [lead, other] = earlierLeads ? [withEarlier, alone] : [alone, withEarlier];
  return {
    reason: earlierLeads ? 'refers-back' : 'alone-leads',
    result: {
      ...lead,
      results: interleaveLeading(lead.results, other.results, rule.leadPassages),
    },
  };
}

/**
 * The leading list's first `leadPassages` items, then the other list's, then the leading list's rest,
 * each passage once, as many as the longer list holds.
 */
export function interleaveLeading<T extends { chunkId: string }>(
  lead: readonly T[],
  other: readonly T[],
  leadPassages: number,
): T[] {
  const size = Math.max(lead.length, other.length);
  const out: T[] = [];
  const seen = new Set<string>();
  const take = (items: readonly T[]) => {
    for (const item of items) {
      if (out.length >= size) return;
      if (seen.has(item.chunkId)) continue;
      seen.add(item.chunkId);
      out.push(item);
    }
  };
  take(lead.slice(0, Math.max(0, leadPassages)));
  take(other);
  take(lead);
  return out;
}

export interface FollowUpSearch {
  /** The leading query: the question itself, or the question with the earlier question added. */
  query: string;
  /** The question with the earlier question added, when it was searched too; null otherwise. */
  contextQuery: string | null;
  reason: FollowUpReason;
  evidence: FollowUpEvidence;
  /** The follow-up's passages and the leading search's verdict. */
  result: SearchResult;
  /** Each search on its own (for measurement): the question alone, and with the earlier question. */
  alone: SearchResult;
  withEarlier: SearchResult | null;
}

/**
 * The offline follow-up: the question is searched on its own first. Only when it points back is it
 * searched with the earlier question too, and the two are combined by `combineFollowUp`. A question
 * that names its own topic never gets the earlier topic's words or passages.
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
    reason: 'stands-alone' as const,
    evidence,
    result: alone,
    alone,
    withEarlier: null,
  };
  if (!evidence.refersBack) return standsAlone;
  const contextQuery = historyStandaloneQuery(history, question, rule.turns);
  if (contextQuery === question) return standsAlone;
  const withEarlier = await search(contextQuery);
  evidence.withEarlier = withEarlier.answerability?.score ?? null;
  const combined = combineFollowUp(alone, withEarlier, rule);
  return {
    query: combined.reason === 'refers-back' ? contextQuery : question,
    contextQuery,
    reason: combined.reason,
    evidence,
    result: combined.result,
    alone,
    withEarlier,
  };
}
