import { Injectable } from '@nestjs/common';
import {
  fitRankingModel,
  gateFitSpec,
  gateMeasurements,
  gateRuns,
  selectQueriesWithQrels,
} from '@lumina/eval';
import type { BeirDataset, GateBaseline, GateFit, GateFitted, GateRanker } from '@lumina/eval';
import type { ChunkingSettings, LearnedRankingModel } from '@lumina/rag';
import { DEFAULT_SETTINGS } from '@lumina/shared';
import { RerankFeatureReader } from './rerank-features.service';
import { RetrievalSuite } from './retrieval-suite.service';
import type { SuiteProgress } from './suite-progress';

export interface GateFitInput {
  /** The fit's subset of its split (see gateFitSubset: no query of the gated subset). */
  train: BeirDataset;
  datasetName: string;
  fit: GateFit;
  chunking: ChunkingSettings;
}

export interface GateMeasureInput {
  /** The gated subset of the test split. */
  dataset: BeirDataset;
  datasetName: string;
  baseline: GateBaseline;
  /** The reranker fitted for the baseline's `fit`; null when it has none. */
  fitted: GateFitted | null;
}

export interface GateMeasurement {
  /** nDCG@10 of each ranker the gate ran. */
  measured: Map<GateRanker, number>;
  /** What to print: each run's report, then what the fit printed. */
  blocks: string[];
}

/**
 * A retrieval regression gate's two steps, each on a database of its own so that neither index sees the
 * other's documents: fitting the learned reranker on the fit's subset (its judged queries' features read
 * as the app's search reads them, the baseline's options), and measuring the gated subset with each
 * ranker the baseline names (and BM25 reranked by the fitted model, over the app's candidateK).
 */
@Injectable()
export class RetrievalGate {
  constructor(
    private readonly retrieval: RetrievalSuite,
    private readonly features: RerankFeatureReader,
  ) {}

  async fitReranker(input: GateFitInput, progress: SuiteProgress): Promise<LearnedRankingModel> {
    const { train, datasetName, fit } = input;
    const read = await this.features.read(
      {
        dataset: train,
        datasetName,
        split: fit.split,
        queries: selectQueriesWithQrels(train),
        candidateK: DEFAULT_SETTINGS.candidateK,
        concurrency: 2,
        chunking: input.chunking,
        dense: fit.dense,
      },
      progress,
    );
    return fitRankingModel(
      read.samples,
      gateFitSpec(fit, {
        version: `${datasetName}-gate`,
        source: read.source,
        candidateDepth: read.candidateK,
        notes: { search: read.search, queriesAsked: read.queriesAsked, subset: fit.subset },
      }),
    );
  }

  async measure(input: GateMeasureInput, progress: SuiteProgress): Promise<GateMeasurement> {
    const { dataset, baseline, fitted } = input;
    const reports = await this.retrieval.evaluate(
      {
        dataset,
        datasetName: input.datasetName,
        split: baseline.split ?? 'test',
        queries: selectQueriesWithQrels(dataset),
        chunking: baseline.chunking,
        exactDense: true,
        concurrency: 2,
        runs: gateRuns(baseline, fitted?.model ?? null, DEFAULT_SETTINGS.candidateK),
      },
      progress,
    );
    return gateMeasurements(baseline, reports, fitted);
  }
}
