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
  /**
   * Keep queries that share a relevant document in the same fold: the held-out queries then ask about
   * documents no fitting query was judged on, so a model cannot score by remembering documents.
   */
  groupByDocument = false,
): LtrCrossValidation {
  if (folds < 2 || folds > samples.length) throw new RangeError(`folds must be in [2, ${samples.length}]`);
  const foldOf = groupByDocument
    ? groupedFolds(samples, folds, seed)
    : dealtFolds(samples.length, folds, seed);
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

/** Queries dealt into folds by a seeded shuffle. */
function dealtFolds(count: number, folds: number, seed: number): number[] {
  const random = mulberry32(seed);
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const foldOf = new Array<number>(count);
  order.forEach((sampleIndex, position) => (foldOf[sampleIndex] = position % folds));
  return foldOf;
}

/** Queries joined (transitively) by a relevant document they share: each group's sample indexes. */
export function sharedSourceGroups(samples: readonly JudgedRankingSample[]): number[][] {
  const parent = samples.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const firstAsker = new Map<string, number>();
  samples.forEach((sample, i) => {
    for (const [document, grade] of Object.entries(sample.judged)) {
      if (grade <= 0) continue;
      const other = firstAsker.get(document);
      if (other === undefined) firstAsker.set(document, i);
      else parent[find(i)] = find(other);
    }
  });
  const groups = new Map<number, number[]>();
  samples.forEach((_, i) => {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), i]);
  });
  return [...groups.values()];
}

/** Folds of whole groups (`sharedSourceGroups`): groups, in a seeded order, each go to the fold with the
 *  fewest queries so far. */
export function groupedFolds(samples: readonly JudgedRankingSample[], folds: number, seed: number): number[] {
  const order = sharedSourceGroups(samples);
  const random = mulberry32(seed);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const size = new Array<number>(folds).fill(0);
  const foldOf = new Array<number>(samples.length);
  for (const members of order) {
    const fold = size.indexOf(Math.min(...size));
    for (const i of members) foldOf[i] = fold;
    size[fold] += members.length;
  }
  return foldOf;
}
