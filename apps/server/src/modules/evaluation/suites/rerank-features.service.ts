import { Injectable } from '@nestjs/common';
import type { BeirDataset, EvalQuery, JudgedRankingSample } from '@lumina/eval';
import { LTR_FEATURES, LtrFeatureRecorder, searchKnowledge } from '@lumina/rag';
import type { ChunkingSettings } from '@lumina/rag';
import { InjectConfig } from '../../../config/app-config';
import type { Env } from '../../../config/env.schema';
import { BeirCorpusIndexer } from '../../ingestion/beir-corpus-indexer.service';
import { EvalSearchFactory } from '../../rag/eval-search.factory';
import type { SuiteProgress } from './suite-progress';

/** The features of every judged query's candidates, as the search reads them, with the judgments. */
export interface RecordedSamples {
  /** The feature names, in the rows' column order. */
  features: string[];
  source: string;
  candidateK: number;
  queriesAsked: number;
  search: Record<string, unknown>;
  samples: JudgedRankingSample[];
}

export interface RerankFeaturesInput {
  dataset: BeirDataset;
  datasetName: string;
  split: string;
  queries: EvalQuery[];
  candidateK: number;
  concurrency: number;
  chunking: ChunkingSettings;
  /** Embed the corpus and each query, so the dense features (the query's cosine) are read too. */
  dense?: boolean;
}

/**
 * What the learned reranker is fitted on: every judged query searched the way the app searches (BM25,
 * the original query), the features of its candidateK candidates read from the index exactly as the
 * reranker will read them, and the judged relevance of each candidate's document.
 */
@Injectable()
export class RerankFeatureReader {
  constructor(
    @InjectConfig() private readonly env: Env,
    private readonly indexer: BeirCorpusIndexer,
    private readonly searches: EvalSearchFactory,
  ) {}

  async read(input: RerankFeaturesInput, progress: SuiteProgress): Promise<RecordedSamples> {
    const { env } = this;
    const { dataset, datasetName, candidateK, queries, chunking } = input;
    const search = this.searches.ports({});
    const indexed = await this.indexer.index(
      dataset,
      datasetName,
      chunking,
      input.dense ? search.embedder : null,
      progress.stage,
    );
    progress.note(
      `index: ${indexed.documentsAdded} documents added, ${indexed.chunksWritten} chunks written`,
    );
    const settings = { ranker: 'bm25' as const, enableRerank: true, candidateK, topK: candidateK };
    const byQuery = new Map<string, JudgedRankingSample>();
    const report = progress.stage('reading features');
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < queries.length) {
        const query = queries[next++];
        const recorder = new LtrFeatureRecorder({ dense: input.dense });
        const result = await searchKnowledge(
          query.text,
          settings,
          { ...search.ports, reranker: recorder },
          search.options,
        );
        const failed = result.warnings.find((w) => /^Rerank/.test(w));
        if (failed) throw new Error(`query ${query.id}: ${failed}`);
        const [recorded] = recorder.recorded;
        const judged = dataset.qrels.get(query.id) ?? new Map<string, number>();
        byQuery.set(query.id, {
          queryId: query.id,
          rows: recorded?.rows ?? [],
          documents: recorded?.documents ?? [],
          relevance: (recorded?.documents ?? []).map((doc) => Math.max(0, judged.get(doc) ?? 0)),
          judged: Object.fromEntries(judged),
        });
        report(++done, queries.length);
      }
    };
    await Promise.all(Array.from({ length: input.concurrency }, worker));
    return {
      features: [...LTR_FEATURES],
      source: `${datasetName}:${input.split}`,
      candidateK,
      queriesAsked: queries.length,
      search: {
        ranker: settings.ranker,
        candidateK,
        k1: env.BM25_K1,
        b: env.BM25_B,
        chunking,
        ...(input.dense ? { embedder: search.embedder.modelId } : {}),
      },
      // In the split's order, whatever order the searches finished in, so the fit is reproducible.
      samples: queries.flatMap((q) => byQuery.get(q.id) ?? []),
    };
  }
}
