export {
  formatAnswerabilityModel,
  formatAnswerabilityRun,
  gateFailures,
  medianMs,
  samplesOf,
} from './answerability-report';
export type { AnswerabilityItemResult, AnswerabilitySourceRun, AnswerGate } from './answerability-report';
export { gateRankers, gateVerdict, updatedGateBaseline } from './retrieval-gate';
export type { GateBaseline, GateRanker } from './retrieval-gate';
export { expansionSamples, formatAdaptiveSavings, formatArms, formatFittedPolicy } from './adaptive-report';
export type { ArmRun } from './adaptive-report';
