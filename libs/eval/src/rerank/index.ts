export {
  candidateNdcg,
  crossValidateLtr,
  groupedFolds,
  rerankOrder,
  sharedSourceGroups,
} from './cross-validate-ltr';
export type { JudgedRankingSample, LtrCrossValidation } from './cross-validate-ltr';
export { DEFAULT_COORDINATE_ASCENT, refineForNdcg } from './coordinate-ascent';
export type { CoordinateAscentOptions } from './coordinate-ascent';
export {
  RANKING_LEARNERS,
  crossValidateFit,
  defaultFitSpec,
  fitRankingModel,
  modelImportance,
} from './fit-ranking-model';
export type { RankingFitSource, RankingFitSpec, RankingLearner } from './fit-ranking-model';
export {
  rankingFitSpec,
  readsCurrentFeatures,
  recordedFitSource,
  selectLtrFeatures,
} from './ranking-fit-options';
export type { RankingFitOptions, RecordedSamplesSource } from './ranking-fit-options';
export { formatCrossValidation, formatFitTraining, formatImportance } from './ranking-fit-report';
export {
  MIN_FIT_QUESTIONS,
  bankRankingSample,
  compareConfigured,
  fitOnBank,
  learnableSamples,
} from './bank-fit';
export type { BankFit, RecordedCandidates } from './bank-fit';
