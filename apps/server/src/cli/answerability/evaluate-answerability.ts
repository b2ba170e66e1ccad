import { answerMetrics, answerSupported, searchRefused } from '@lumina/eval';
import type { AnswerabilitySource, BeirDataset } from '@lumina/eval';
import { offlineAnswerOf } from '@lumina/rag';
import type { AnswerabilityModel, ChunkingSettings, ExtractiveOptions, FeatureVector } from '@lumina/rag';
import type { AnswerMetrics } from '@lumina/shared';
import type { Env } from '../../config/env.schema';
import { openDataSource } from '../../app-data-source';
import { createEmbedder } from '../../providers/create-embedder';
import { indexBeirCorpus } from '../beir-index';
import { createEvalSearch } from '../eval-search';
import { progressReporter } from '../progress';

export interface AnswerabilityItemResult {
  id: string;
  question: string;
  inScope: boolean;
  refused: boolean;
  /** P(answerable), and the features it was computed from. */
  score: number | null;
  features: Record<string, number>;
  supported: boolean | null;
  answer: string | null;
}

export interface AnswerabilitySourceRun {
  source: string;
  modelVersion: string;
  metrics: AnswerMetrics;
  /** Median milliseconds per question: search + decision, and the whole answer. */
  timings: { searchP50: number; answerP50: number };
  items: AnswerabilityItemResult[];
}

/**
 * Index a source into its own embedded database (reused by later runs) and ask every question the way
 * the chat does at default settings: the app's search with `model` deciding, then the offline answer.
 */
export async function runAnswerabilitySource(
  env: Env,
  source: AnswerabilitySource,
  chunking: ChunkingSettings,
  model: AnswerabilityModel,
  dbRoot: string,
  extractive: Partial<ExtractiveOptions> = {},
): Promise<AnswerabilitySourceRun> {
  const dbDir = `${dbRoot}/${source.name}-${chunking.maxChars}-${chunking.overlapChars}`;
  const database = await openDataSource({
    ...env,
    DATABASE_URL: undefined,
    PGLITE_DATA_DIR: dbDir,
    PGLITE_PORT: 0,
  });
  try {
    const { dataSource } = database;
    const dataset = { dir: '', split: '', corpus: source.corpus, queries: new Map(), qrels: new Map() };
    await indexBeirCorpus(
      dataSource,
      dataset as unknown as BeirDataset,
      source.name,
      chunking,
      null,
      progressReporter,
      source.format,
    );
    const search = createEvalSearch(dataSource, env, createEmbedder(env), { answerabilityModel: model });
    const items: AnswerabilityItemResult[] = [];
    const searchMs: number[] = [];
    const answerMs: number[] = [];
    const report = progressReporter(`asking ${source.name}`);
    for (const question of source.questions) {
      const t0 = performance.now();
      const result = await search.search(question.text, {});
      searchMs.push(performance.now() - t0);
      let refused = searchRefused(result);
      let answer: Awaited<ReturnType<typeof offlineAnswerOf>> | null = null;
      if (!refused) {
        answer = await offlineAnswerOf(question.text, result, search.embedder, extractive);
        refused = answer.notFound;
      }
      answerMs.push(performance.now() - t0);
      const externalOf = new Map(
        result.results.map((hit) => [hit.chunkId, hit.externalId ?? hit.documentId]),
      );
      items.push({
        id: question.id,
        question: question.text,
        inScope: question.inScope,
        refused,
        score: result.answerability?.score ?? null,
        features: result.answerability?.features ?? {},
        supported:
          question.inScope && !refused && answer && question.gold.length > 0
            ? answerSupported({
                citedChunkIds: [],
                citedDocumentIds: answer.citations.map((c) => externalOf.get(c.chunkId) ?? c.documentId),
                goldIds: new Set(question.gold),
                answer: answer.text,
                goldQuote: question.quote,
              })
            : null,
        answer: answer && !answer.notFound ? answer.text : null,
      });
      report(items.length, source.questions.length);
    }
    return {
      source: source.name,
      modelVersion: model.version,
      metrics: answerMetrics(items, model.version, 'extractive'),
      timings: { searchP50: median(searchMs), answerP50: median(answerMs) },
      items,
    };
  } finally {
    await database.close();
  }
}

/**
 * The items' features as fitting samples (the probe model records every feature). Questions the search
 * found nothing for have none: they are refused before any decision.
 */
export function samplesOf(run: AnswerabilitySourceRun) {
  return run.items
    .filter((item) => Object.keys(item.features).length > 0)
    .map((item) => ({
      features: item.features as FeatureVector,
      inScope: item.inScope,
      source: run.source,
    }));
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)] * 10) / 10;
}
