import { Injectable } from '@nestjs/common';
import { mapPool } from '@lumina/eval';
import type { BeirDataset, DatasetQuery } from '@lumina/eval';
import type { ChunkingSettings } from '@lumina/rag';
import { ANSWER_PROMPT_VERSION, EXTRACTIVE_ANSWERER_VERSION } from '@lumina/rag';
import { resolveSettings } from '@lumina/shared';
import type { SearchSettings } from '@lumina/shared';
import { AnswerJudge, summariseAnswers } from '@lumina/eval';
import type { AnswerItemResult, AnswersReport } from '@lumina/eval';
import { InjectConfig } from '../../../config/app-config';
import type { Env } from '../../../config/env.schema';
import { createChatModel } from '../../../providers/create-chat-model';
import { generateAnswer } from '@lumina/rag';
import { BeirCorpusIndexer } from '../../ingestion/beir-corpus-indexer.service';
import { EvalSearchFactory } from '../../rag/eval-search.factory';
import { searchReadsVectors } from './search-reads-vectors';
import type { SuiteProgress } from './suite-progress';

export interface AnswersSuiteInput {
  dataset: BeirDataset;
  datasetName: string;
  inScope: DatasetQuery[];
  outOfScope: DatasetQuery[];
  chunking: ChunkingSettings;
  settings: Partial<SearchSettings>;
  judgeModel: string;
  /** The model that writes the answers (default LLM_MODEL); offline (no LLM_BASE_URL) the extractive answerer. */
  answerModel?: string;
  concurrency: number;
}

/**
 * The answers suite: index the corpus with the app's code, answer every question with the chat's
 * generateAnswer (same search, same prompt, same refusal rules), then have the judge grade each answer
 * against the passages it cites. The judge and the answers come from the LLM_BASE_URL endpoint.
 */
@Injectable()
export class AnswersSuite {
  constructor(
    @InjectConfig() private readonly env: Env,
    private readonly indexer: BeirCorpusIndexer,
    private readonly searches: EvalSearchFactory,
  ) {}

  async run(input: AnswersSuiteInput, progress: SuiteProgress): Promise<AnswersReport> {
    const { env } = this;
    const judgeModel = createChatModel({ ...env, LLM_MODEL: input.judgeModel });
    if (!judgeModel) throw new Error('the judge needs an LLM endpoint: set LLM_BASE_URL');
    const judge = new AnswerJudge(judgeModel);
    const chatModel = createChatModel({ ...env, LLM_MODEL: input.answerModel ?? env.LLM_MODEL });
    const settings = resolveSettings(input.settings);
    const started = Date.now();

    const search = this.searches.create();
    const needsVectors = searchReadsVectors(settings);
    const indexed = await this.indexer.index(
      input.dataset,
      input.datasetName,
      input.chunking,
      needsVectors ? search.embedder : null,
      progress.stage,
    );
    const deps = {
      search: (query: string, s: Partial<SearchSettings>) => search.search(query, s),
      chatModel,
      embedder: search.embedder,
    };

    const questions = [
      ...input.inScope.map((q) => ({ ...q, inScope: true })),
      ...input.outOfScope.map((q) => ({ ...q, inScope: false })),
    ];
    const report = progress.stage('answering');
    let done = 0;
    const results = await mapPool(questions, input.concurrency, async (question) => {
      const result = await answerAndJudge(question, input.dataset, settings, deps, judge);
      report(++done, questions.length);
      return result;
    });

    const answerMs = results.map((r) => r.timings.answerMs);
    const judgeMs = results.map((r) => r.timings.judgeMs);
    return {
      suite: 'answers',
      dataset: input.datasetName,
      split: input.dataset.split,
      generator: chatModel ? 'llm' : 'extractive',
      answerModel: chatModel?.modelId ?? search.embedder.modelId,
      answerPromptVersion: chatModel ? ANSWER_PROMPT_VERSION : EXTRACTIVE_ANSWERER_VERSION,
      judge: { model: judge.modelId, promptVersion: judge.promptVersion },
      settings: { ...settings, chunking: input.chunking, weights: search.options.weights },
      questions: { inScope: input.inScope.length, outOfScope: input.outOfScope.length },
      metrics: summariseAnswers(results),
      counts: {
        failed: results.filter((r) => r.status !== 'complete').length,
        judgeErrors: results.filter((r) => r.judgeError !== null).length,
        withDroppedMarkers: results.filter((r) => r.droppedMarkers.length > 0).length,
        uncited: results.filter((r) => r.uncited).length,
      },
      timings: {
        indexSeconds: indexed.seconds,
        totalSeconds: Math.round((Date.now() - started) / 100) / 10,
        answerMsMean: mean(answerMs),
        judgeMsMean: mean(judgeMs),
      },
      perQuestion: results,
    };
  }
}

async function answerAndJudge(
  question: DatasetQuery & { inScope: boolean },
  dataset: BeirDataset,
  settings: SearchSettings,
  deps: Parameters<typeof generateAnswer>[1],
  judge: AnswerJudge,
): Promise<AnswerItemResult> {
  const t0 = Date.now();
  const outcome = await generateAnswer({ question: question.text, history: [], settings }, deps);
  const answerMs = Date.now() - t0;
  const hits = outcome.search?.results ?? [];
  const citations = outcome.citations.map((c) => ({
    marker: c.marker,
    chunkId: c.chunkId,
    documentId: hits[c.marker - 1]?.externalId ?? c.documentId,
  }));
  const judgments = dataset.qrels.get(question.id);
  const answered = outcome.status === 'complete' && !outcome.notFound;
  const result: AnswerItemResult = {
    id: question.id,
    question: question.text,
    inScope: question.inScope,
    status: outcome.status,
    answer: outcome.text,
    notFound: outcome.notFound,
    generator: outcome.generator,
    citations,
    droppedMarkers: outcome.droppedMarkers,
    uncited: outcome.uncited,
    citesRelevantDocument:
      question.inScope && answered ? citations.some((c) => (judgments?.get(c.documentId) ?? 0) > 0) : null,
    judge: null,
    judgeError: null,
    error: outcome.error ? `${outcome.error.message} (${outcome.error.detail})` : null,
    timings: { answerMs, judgeMs: 0 },
  };
  if (!answered) return result;
  const t1 = Date.now();
  try {
    result.judge = await judge.judge(
      question.text,
      outcome.text,
      outcome.citations.map((c) => {
        const passage = outcome.passages[c.marker - 1];
        return { marker: c.marker, title: passage.title, text: passage.text };
      }),
    );
  } catch (error) {
    result.judgeError = error instanceof Error ? error.message : String(error);
  }
  result.timings.judgeMs = Date.now() - t1;
  return result;
}

function mean(values: number[]): number {
  return values.length ? Math.round(values.reduce((s, v) => s + v, 0) / values.length) : 0;
}
