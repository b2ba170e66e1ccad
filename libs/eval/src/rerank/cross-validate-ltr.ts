import { fitLtrModel, scoreModel, featureColumns } from '@lumina/rag';
import type { FitLtrOptions, LearnedRankingModel, RankingSample } from '@lumina/rag';
import { dedupeRanking } from '../metrics/dedupe-ranking';
import { ndcgAtK } from '../metrics/ndcg-at-k';
import { mulberry32 } from '../stats/mulberry32';
import { pairedRandomizationTest } from '../stats/paired-randomization-test';

/** A query's candidates as the search ordered them, with each candidate's document and the judgments. */
export interface JudgedRankingSample extends RankingSample {
  /** Each candidate's document id (as the judgments name it), in the search's order. */
  documents: string[];
  /** Every judged document of the query with its grade (also those no candidate holds). */
  judged: Record<string, number>;
}

export interface LtrCrossValidation {
  folds: number;
  queries: number;
  /** nDCG@10 per query (samples' order), in the search's order and reranked by the held-out model. */
  before: number[];
  after: number[];
  meanBefore: number;
  meanAfter: number;
  /** Paired randomisation test of after − before. */
  p: number;
}

/** nDCG@10 of a query's candidates in the given order of their indexes (a document counts once). */
export function candidateNdcg(sample: JudgedRankingSample, order: readonly number[], k = 10): number {
  const ranking = dedupeRanking(order.map((i) => sample.documents[i]));
  return ndcgAtK(ranking, new Map(Object.entries(sample.judged)), k);
}

/** The order a model gives a query's candidates (best first; ties keep the search's order). */
export function rerankOrder(model: LearnedRankingModel, sample: RankingSample): number[] {
  const columns = featureColumns(model);
  const scores = sample.rows.map(
    (row) =>
      scoreModel(
        model,
        columns.map((c) => row[c]),
      ).score,
  );
  return scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
}

/**
 * k-fold cross-validation of the learned reranker on one bank: queries are dealt into folds by a seeded
 * shuffle, each fold is reranked by a model fitted on the others, and every query's nDCG@10 over its
 * candidates is compared with the search's own order. For banks without a train/test split, and for
 * choosing fitting options on a train split without touching its test split.
 */
export function crossValidateLtr(
  samples: readonly JudgedRankingSample[],
  options: FitLtrOptions,
  folds = 5,
  seed = 1,
  /** How a fold's model is fitted (default: the pairwise fit). */
  fit: (train: JudgedRankingSample[], options: FitLtrOptions) => LearnedRankingModel = (train, o) =>
    fitLtrModel(train, o),
): LtrCrossValidation {
  if (folds < 2 || folds > samples.length) throw new RangeError(`folds must be in [2, ${samples.length}]`);
  const random = mulberry32(seed);
  const order = samples.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const foldOf = new Array<number>(samples.length);
  order.forEach((sampleIndex, position) => (foldOf[sampleIndex] = position % folds));
  const before = samples.map((s) =>
    candidateNdcg(
      s,
      s.rows.map((_, i) => i),
    ),
  );
  const after = new Array<number>(samples.length).fill(0);
  for (let fold = 0; fold < folds; fold++) {
    const model = fit(
      samples.filter((_, i) => foldOf[i] !== fold),
      options,
    );
    samples.forEach((sample, i) => {
      if (foldOf[i] === fold) after[i] = candidateNdcg(sample, rerankOrder(model, sample));
    });
  }
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  return {
    folds,
    queries: samples.length,
    before,
    after,
    meanBefore: mean(before),
    meanAfter: mean(after),
    p: pairedRandomizationTest(after, before).pValue,
  };
}
