export { candidateNdcg, crossValidateLtr, rerankOrder } from './cross-validate-ltr';
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
