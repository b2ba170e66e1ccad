export { candidateNdcg, crossValidateLtr, rerankOrder } from './cross-validate-ltr';
export type { JudgedRankingSample, LtrCrossValidation } from './cross-validate-ltr';
