import type { Citation } from '@lumina/shared';
import type { SearchResult } from '../pipeline/search-result';
import type { EmbeddingProvider } from '../ports/embedding-provider.port';
import type { ExtractiveOptions } from './extractive-answerer';
import { round } from '../pipeline/stages/plan';
import { StageFailure, recordFailure, startRun, timed } from './stages/answer-run';
import type { AnswerDeps, AnswerInput, AnswerOutcome, AnswerSink } from './stages/answer-run';
import { refuse, refusesBeforeWriting } from './stages/decide';
import { generateExtractive, generateWithModel } from './stages/generate';
import { rewriteFollowUp } from './stages/rewrite';
import { receiveSearch, searchStage } from './stages/search';

/**
 * Answer a question from the documents — the one code path of POST /chat and of the evaluations — as a
 * conductor over named stages (`stages/`): rewrite (a follow-up into a standalone query), search (the
 * app's search, which decides the question's language), decide (refuse with the not-found sentence, no
 * model, when the search refuses: the one refusal rule), generate (a grounded LLM answer, or offline the
 * extractive answerer) and cite; the app stores the outcome as `answerRecord` (the store stage) writes
 * it. Never throws for a failing model or search: the outcome says `failed` (or `cancelled` when the
 * signal aborted) and keeps the partial text.
 */
export async function generateAnswer(
  input: AnswerInput,
  deps: AnswerDeps,
  sink: AnswerSink = {},
): Promise<AnswerOutcome> {
  const origin = { generator: 'none', source: 'documents', model: null, promptVersion: null } as const;
  const run = startRun(input.question.trim(), origin, sink, input.signal, deps.now);
  const { outcome } = run;
  const { chatModel, embedder } = deps;
  try {
    const offlineFollowUp = await timed(run, 'rewrite', 'llm_failed', () =>
      rewriteFollowUp(run, input.history, chatModel),
    );
    const search = await timed(run, 'search', 'search_failed', () =>
      searchStage(run, deps.search, input.settings, input.history, offlineFollowUp),
    );
    receiveSearch(run, search);
    if (refusesBeforeWriting(search)) refuse(run);
    else if (chatModel) await timed(run, 'generation', 'llm_failed', () => generateWithModel(run, chatModel));
    else await timed(run, 'generation', 'internal', () => generateExtractive(run, embedder, deps.extractive));
  } catch (error) {
    if (!(error instanceof StageFailure)) throw error;
    recordFailure(outcome, error, input.signal);
  }
  outcome.timings.total = round(run.now() - run.started);
  return outcome;
}

/**
 * The offline answer to a search that already ran (the evaluation's answer figures): the chat's own
 * code path, with the extractive answerer.
 */
export async function offlineAnswerOf(
  question: string,
  result: SearchResult,
  embedder: EmbeddingProvider,
  extractive?: Partial<ExtractiveOptions>,
): Promise<{ text: string; notFound: boolean; citations: Citation[]; generator: string }> {
  const outcome = await generateAnswer(
    { question, history: [], settings: result.settings },
    { search: async () => result, chatModel: null, embedder, extractive },
  );
  if (outcome.status !== 'complete') throw new Error(outcome.error?.detail ?? 'the answer failed');
  return {
    text: outcome.text,
    notFound: outcome.notFound,
    citations: outcome.citations,
    generator: outcome.promptVersion ?? outcome.generator,
  };
}
