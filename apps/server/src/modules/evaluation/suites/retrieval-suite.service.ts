import { Injectable } from '@nestjs/common';
import { documentRanking, formatLanguageCounts, runRetrievalEval } from '@lumina/eval';
import type { BeirDataset, EvalQuery, RetrievalReport } from '@lumina/eval';
import { LearnedReranker } from '@lumina/rag';
import type { ChunkingSettings, LearnedRankingModel, SearchOptions } from '@lumina/rag';
import type { Ranker } from '@lumina/shared';
import { BeirCorpusIndexer } from '../../ingestion/beir-corpus-indexer.service';
import { EvalSearchFactory } from '../../rag/eval-search.factory';
import type { SuiteProgress } from './suite-progress';

export interface RankerRun {
  ranker: Ranker;
  expansion: boolean;
  hyde: boolean;
  /** enableRerank: the reranker the environment configures (RERANK_MODEL_FILE for the learned one). */
  rerank?: boolean;
  /** With `rerank`: rerank with this fitted model instead of the reranker the environment configures. */
  rerankModel?: LearnedRankingModel;
  denseWeight?: number;
  /** The hybrid's RRF constant (SearchOptions.rrfK) instead of the configured one. */
  rrfK?: number;
  /** The hybrid's fusion (SearchOptions.fusion) instead of the configured one. */
  fusion?: SearchOptions['fusion'];
  /** Passages kept per query and the width of each branch list (default: deep enough for 100 documents). */
  topK?: number;
  candidateK?: number;
}

export interface RetrievalSuiteInput {
  dataset: BeirDataset;
  datasetName: string;
  split: string;
  queries: EvalQuery[];
  chunking: ChunkingSettings;
  runs: RankerRun[];
  exactDense: boolean;
  concurrency: number;
}

/**
 * The retrieval suite: index a BEIR corpus with the app's code (reusing what the database already holds),
 * then evaluate each requested ranker configuration with the app's searchKnowledge. One report per run.
 */
@Injectable()
export class RetrievalSuite {
  constructor(
    private readonly indexer: BeirCorpusIndexer,
    private readonly searches: EvalSearchFactory,
  ) {}

  async evaluate(input: RetrievalSuiteInput, progress: SuiteProgress): Promise<RetrievalReport[]> {
    const { chunking } = input;
    // Deep enough that 100 distinct documents survive deduplication of chunks.
    const depth = chunking.unit === 'chunk' ? 300 : 100;
    const base = this.searches.create({ exactDense: input.exactDense, hybridDepth: depth });
    const rerankers = input.runs.map((run) =>
      run.rerankModel ? new LearnedReranker(run.rerankModel) : undefined,
    );
    // The corpus is embedded for a dense or hybrid run, and for a reranker that weighs the query's cosine.
    const needsVectors = input.runs.some(
      (run, i) =>
        run.ranker !== 'bm25' ||
        (run.rerank && (rerankers[i]?.needsQueryVector ?? base.rerankerNeedsQueryVector)),
    );
    const indexed = await this.indexer.index(
      input.dataset,
      input.datasetName,
      chunking,
      needsVectors ? base.embedder : null,
      progress.stage,
    );
    progress.note(
      `index: ${indexed.documentsAdded} documents added, ${indexed.chunksWritten} chunks written, ` +
        `${indexed.vectorsBackfilled} vectors added (${base.embedder.stats.computed} computed, the rest from ` +
        `the cache) in ${indexed.seconds}s`,
    );
    progress.note(`documents by language: ${formatLanguageCounts(indexed.languages)}`);

    const reports: RetrievalReport[] = [];
    for (const [i, run] of input.runs.entries()) {
      const overrides: Partial<SearchOptions> = { ...base.options };
      if (run.denseWeight !== undefined) overrides.weights = { lexical: 1, dense: run.denseWeight };
      if (run.rrfK !== undefined) overrides.rrfK = run.rrfK;
      if (run.fusion !== undefined) overrides.fusion = run.fusion;
      const search = this.searches.create(overrides, base.embedder, rerankers[i]);
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
          // Which encoder the dense list read: a report of MiniLM and one of USE-lite look alike otherwise.
          embedder: search.embedder.modelId,
          weights: search.options.weights,
          rrfK: search.options.rrfK,
          fusion: search.options.fusion,
          exactDense: search.options.exactDense ?? false,
          ...(run.rerank ? { reranker: search.rerankerId } : {}),
        },
        queries: input.queries,
        qrels: input.dataset.qrels,
        concurrency: input.concurrency,
        onProgress: progress.stage(`querying ${run.ranker}`),
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
  }
}
