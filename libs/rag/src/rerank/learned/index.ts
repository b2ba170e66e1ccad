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
export { LTR_MODEL_FORMAT, featureColumns, parseLtrModel, scoreLtr } from './ltr-model';
export type { LtrModel, LtrTraining } from './ltr-model';
export { DEFAULT_LTR_FIT, fitLtrModel } from './fit-ltr';
export type { FitLtrOptions, RankingSample } from './fit-ltr';
export { LearnedReranker, LtrFeatureRecorder } from './learned-reranker';
