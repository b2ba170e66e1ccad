export {
  formatAnswerabilityModel,
  formatAnswerabilityRun,
  gateFailures,
  medianMs,
  samplesOf,
} from './answerability-report';
export type { AnswerabilityItemResult, AnswerabilitySourceRun, AnswerGate } from './answerability-report';
export {
  LEARNED_GATE_RANKER,
  formatGateFit,
  gateFitSpec,
  gateFitSubset,
  gateRankers,
  gateRetrievalRankers,
  gateVerdict,
  updatedGateBaseline,
} from './retrieval-gate';
export type { GateBaseline, GateFit, GateRanker, GateSubset } from './retrieval-gate';
export { expansionSamples, formatAdaptiveSavings, formatArms, formatFittedPolicy } from './adaptive-report';
export type { ArmRun } from './adaptive-report';
