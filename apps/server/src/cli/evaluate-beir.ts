import { documentRanking, runRetrievalEval } from '@lumina/eval';
import type { BeirDataset, EvalQuery, RetrievalReport } from '@lumina/eval';
import type { ChunkingSettings, SearchOptions } from '@lumina/rag';
import type { Ranker } from '@lumina/shared';
import type { Env } from '../config/env.schema';
import { openDataSource } from '../app-data-source';
import { createEmbedder } from '../providers/create-embedder';
import { indexBeirCorpus } from './beir-index';
import { createEvalSearch } from './eval-search';
import { progressReporter } from './progress';

export interface RankerRun {
  ranker: Ranker;
  expansion: boolean;
  hyde: boolean;
  /** enableRerank: the reranker the environment configures (RERANK_MODEL_FILE for the learned one). */
  rerank?: boolean;
  denseWeight?: number;
  /** Passages kept per query and the width of each branch list (default: deep enough for 100 documents). */
  topK?: number;
  candidateK?: number;
}

export interface EvaluateBeirInput {
  env: Env;
  dataset: BeirDataset;
  datasetName: string;
  split: string;
  queries: EvalQuery[];
  chunking: ChunkingSettings;
  /** Embedded database folder (ignored when DATABASE_URL is set); 'memory://' for a throwaway one. */
  dbDir: string;
  runs: RankerRun[];
  exactDense: boolean;
  concurrency: number;
}

/**
 * Index a BEIR corpus with the app's code (reusing what the database already holds), then evaluate each
 * requested ranker configuration with the app's searchKnowledge. Returns one report per run.
 */
export async function evaluateBeir(input: EvaluateBeirInput): Promise<RetrievalReport[]> {
  const { env, chunking } = input;
  const database = await openDataSource({ ...env, PGLITE_DATA_DIR: input.dbDir, PGLITE_PORT: 0 });
  const { dataSource } = database;
  try {
    // Deep enough that 100 distinct documents survive deduplication of chunks.
    const depth = chunking.unit === 'chunk' ? 300 : 100;
    const base = createEvalSearch(dataSource, env, createEmbedder(env), {
      exactDense: input.exactDense,
      hybridDepth: depth,
    });
    // The corpus is embedded for a dense or hybrid run, and for a reranker that weighs the query's cosine.
    const rerankerNeedsVectors = base.rerankerNeedsQueryVector;
    const needsVectors = input.runs.some(
      (run) => run.ranker !== 'bm25' || (run.rerank && rerankerNeedsVectors),
    );
    const indexed = await indexBeirCorpus(
      dataSource,
      input.dataset,
      input.datasetName,
      chunking,
      needsVectors ? base.embedder : null,
      progressReporter,
    );
    console.error(
      `index: ${indexed.documentsAdded} documents added, ${indexed.chunksWritten} chunks written, ` +
        `${indexed.vectorsBackfilled} vectors added (${base.embedder.stats.computed} computed, the rest from ` +
        `the cache) in ${indexed.seconds}s`,
    );

    const reports: RetrievalReport[] = [];
    for (const run of input.runs) {
      const overrides: Partial<SearchOptions> = { ...base.options };
      if (run.denseWeight !== undefined) overrides.weights = { lexical: 1, dense: run.denseWeight };
      const search = createEvalSearch(dataSource, env, base.embedder, overrides);
      const settings = {
        ranker: run.ranker,
        enableQueryExpansion: run.expansion,
        enableHyDE: run.hyde,
        enableRerank: run.rerank ?? false,
        topK: run.topK ?? depth,
        candidateK: run.candidateK ?? depth,
      };
      const report = await runRetrievalEval({
        dataset: input.datasetName,
        split: input.split,
        ranker: run.ranker,
        settings: {
          ...settings,
          chunking,
          weights: search.options.weights,
          exactDense: search.options.exactDense ?? false,
          ...(run.rerank ? { reranker: search.rerankerId } : {}),
        },
        queries: input.queries,
        qrels: input.dataset.qrels,
        concurrency: input.concurrency,
        onProgress: progressReporter(`querying ${run.ranker}`),
        search: async (query) => {
          const result = await search.search(query.text, settings);
          // A reranker that fails keeps the fused order with a warning: an evaluation of it must stop.
          const failed = run.rerank && result.warnings.find((w) => /^Rerank/.test(w));
          if (failed) throw new Error(`query ${query.id}: ${failed}`);
          return documentRanking(
            result.results.map((hit) => ({ documentId: hit.externalId ?? hit.documentId })),
          );
        },
      });
      report.timings = {
        ...report.timings,
        indexSeconds: indexed.seconds,
        vectorsComputed: base.embedder.stats.computed,
        vectorsFromCache: base.embedder.stats.cached,
      };
      reports.push(report);
    }
    return reports;
  } finally {
    await database.close();
  }
}
