import {
  DEFAULT_LAMBDAMART_FIT,
  DEFAULT_LTR_FIT,
  LTR_FEATURES,
  fitLambdaMart,
  fitLtrModel,
  isTreesModel,
} from '@lumina/rag';
import type { FitLambdaMartOptions, FitLtrOptions, LearnedRankingModel, LtrFeature } from '@lumina/rag';
import { refineForNdcg } from './coordinate-ascent';
import { crossValidateLtr } from './cross-validate-ltr';
import type { JudgedRankingSample, LtrCrossValidation } from './cross-validate-ltr';

/** The two learners: a pairwise linear model (optionally refined on nDCG@10), or LambdaMART trees. */
export const RANKING_LEARNERS = ['linear', 'lambdamart'] as const;
export type RankingLearner = (typeof RANKING_LEARNERS)[number];

/** How a learned reranker is fitted: the learner and its options (every field has a default). */
export type RankingFitSpec =
  | { learner: 'linear'; objective: 'ranknet' | 'ndcg'; options: FitLtrOptions }
  | { learner: 'lambdamart'; options: FitLambdaMartOptions };

/** Provenance every fit keeps: the model's name, where its samples came from, how deep they go. */
export interface RankingFitSource {
  version: string;
  source: string;
  candidateDepth: number;
  notes?: Record<string, unknown>;
}

/**
 * The default fit: the pairwise linear model. On SciFact train LambdaMART scored higher under plain
 * cross-validation but not once queries about the same document were kept in one fold: its extra gain was
 * remembering documents, which does not carry to new ones (see docs/measurements.md, "Learned reranker").
 */
export function defaultFitSpec(
  source: RankingFitSource,
  learner: RankingLearner = 'linear',
  features: readonly LtrFeature[] = LTR_FEATURES,
): RankingFitSpec {
  if (learner === 'linear')
    return {
      learner,
      objective: 'ranknet',
      options: { ...DEFAULT_LTR_FIT, ...source, features: [...features] },
    };
  return { learner, options: { ...DEFAULT_LAMBDAMART_FIT, ...source, features: [...features] } };
}

/** Fit a model on these samples as the spec says. Deterministic. */
export function fitRankingModel(
  samples: readonly JudgedRankingSample[],
  spec: RankingFitSpec,
): LearnedRankingModel {
  if (spec.learner === 'lambdamart') return fitLambdaMart(samples, spec.options);
  const pairwise = fitLtrModel(samples, spec.options);
  if (spec.objective === 'ranknet')
    return { ...pairwise, training: { ...pairwise.training, objective: 'ranknet' } };
  return refineForNdcg(pairwise, samples).model;
}

/** k-fold cross-validation of a fit spec (queries dealt by a seeded shuffle). */
export function crossValidateFit(
  samples: readonly JudgedRankingSample[],
  spec: RankingFitSpec,
  folds: number,
  seed = 1,
  groupByDocument = false,
): LtrCrossValidation {
  const linear = spec.learner === 'linear' ? spec.options : { ...DEFAULT_LTR_FIT, ...spec.options };
  return crossValidateLtr(
    samples,
    linear as FitLtrOptions,
    folds,
    seed,
    (train) => fitRankingModel(train, spec),
    groupByDocument,
  );
}

/**
 * What a fitted model leans on, most first: a linear model's weights (on standardised features), or how
 * many splits of the trees each feature makes.
 */
export function modelImportance(model: LearnedRankingModel): { feature: LtrFeature; value: number }[] {
  const values = isTreesModel(model)
    ? model.features.map((_, i) =>
        model.trees.reduce((sum, tree) => sum + tree.feature.filter((f) => f === i).length, 0),
      )
    : model.weights;
  return model.features
    .map((feature, i) => ({ feature, value: values[i] }))
    .sort((a, b) => Math.abs(b.value) - Math.abs(a.value) || (a.feature < b.feature ? -1 : 1));
}
