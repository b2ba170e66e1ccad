export type { RerankEvidence, RerankPassageEvidence, RerankQueryTerm } from './rerank-evidence';
export {
  COVERAGE_WINDOW,
  DENSE_LTR_FEATURES,
  LTR_FEATURES,
  ORDERED_PAIR_WINDOW,
  ltrFeatureRows,
  orderedPairs,
  spanDensity,
  windowCoverage,
} from './ltr-features';
export type { LtrFeature } from './ltr-features';
export {
  LTR_MODEL_FORMAT,
  featureColumns,
  featuresInUse,
  isTreesModel,
  parseLtrModel,
  scoreLtr,
  scoreModel,
} from './ltr-model';
export type { LearnedRankingModel, LtrModel, LtrTraining } from './ltr-model';
export { LTR_TREES_FORMAT, scoreTrees } from './ltr-trees';
export type { LtrTreesModel, RegressionTree } from './ltr-trees';
export { DEFAULT_LAMBDAMART_FIT, fitLambdaMart } from './fit-lambdamart';
export type { FitLambdaMartOptions } from './fit-lambdamart';
export { DEFAULT_LTR_FIT, fitLtrModel } from './fit-ltr';
export type { FitLtrOptions, RankingSample } from './fit-ltr';
export { LearnedReranker, LtrFeatureRecorder } from './learned-reranker';
