import type { SearchSettings } from '@lumina/shared';
import type { SearchResult } from '../../pipeline/search-result';
import { searchFollowUp } from '../follow-up-query';
import type { HistoryTurn } from '../standalone-query';
import type { AnswerDeps, AnswerRun } from './answer-run';

/**
 * The search stage: the app's search of the standalone query (which decides the question's language
 * itself), or, for an offline follow-up, the question searched alone first, and only when it points back
 * with the earlier question and the earlier answer's cited words too; the more answerable of the first
 * two leads (searchFollowUp; the trace says which and why). Its hits become the numbered passages, and
 * the sink hears of them before any text is written.
 */
export async function searchStage(
  run: AnswerRun,
  search: AnswerDeps['search'],
  settings: Partial<SearchSettings>,
  history: readonly HistoryTurn[],
  offlineFollowUp: boolean,
): Promise<SearchResult> {
  const { outcome, signal } = run;
  if (!offlineFollowUp) return search(outcome.standaloneQuery, settings, signal);
  const followUp = await searchFollowUp(outcome.query, history, (query) => search(query, settings, signal));
  outcome.standaloneQuery = followUp.query;
  // `alone-leads`: the question itself was the query that leads (the earlier turn's searches only filled
  // the lower ranks), so it is not counted as rewritten.
  outcome.rewrite = followUp.reason === 'refers-back' ? 'history' : 'none';
  outcome.rewriteReason = followUp.reason;
  return followUp.result;
}

/** Takes in what the search found: its warnings, its hits as passages numbered 1, 2, 3… in rank order. */
export function receiveSearch(run: AnswerRun, search: SearchResult): void {
  const { outcome } = run;
  outcome.search = search;
  outcome.warnings.push(...search.warnings);
  outcome.passages = search.results.map((hit, i) => ({
    marker: i + 1,
    chunkId: hit.chunkId,
    documentId: hit.documentId,
    title: hit.documentTitle,
    headingPath: hit.headingPath,
    anchor: hit.anchor,
    span: { start: hit.spanStart, end: hit.spanEnd },
    ...(hit.pages ? { pages: hit.pages } : {}),
    text: hit.text,
    score: hit.score,
    similarity: hit.similarity,
    provenance: hit.provenance,
    ...(hit.rerank ? { rerank: hit.rerank } : {}),
  }));
  run.sink.retrieval?.({
    query: outcome.query,
    standaloneQuery: outcome.standaloneQuery,
    rewrite: outcome.rewrite,
    rewriteReason: outcome.rewriteReason,
    passages: outcome.passages,
    expansions: search.expansions,
    hyde: search.hyde,
    adaptive: search.adaptive,
    belowThreshold: search.belowThreshold,
    answerability: search.answerability,
    warnings: search.warnings,
    timings: { rewrite: outcome.timings.rewrite, search: outcome.timings.search },
  });
}
