export type { PassageTermStat, QueryTermStat, TermEvidence } from './term-evidence';
export {
  ANSWERABILITY_FEATURES,
  answerabilityFeatures,
  idf,
  weightedQueryTerms,
} from './answerability-features';
export type { AnswerabilityFeature, AnswerabilityInput, FeatureVector } from './answerability-features';
export { fitLogistic, sigmoid, solve } from './logistic-regression';
export type { LogisticFit, LogisticOptions } from './logistic-regression';
export { operatingPoint, rocAuc, thresholdForTarget, tradeOffCurve } from './calibration';
export type { OperatingPoint } from './calibration';
export {
  DEFAULT_FIT_OPTIONS,
  decideAnswerability,
  featureProbeModel,
  fitAnswerabilityModel,
  parseAnswerabilityModel,
  scoreAnswerability,
} from './answerability-model';
export type { AnswerabilityModel, FitAnswerabilityOptions, LabelledFeatures } from './answerability-model';
export { withoutFramingWords } from './framing-words';
