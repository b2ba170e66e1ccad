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
  gateMeasurements,
  gateRankers,
  gateRetrievalRankers,
  gateRuns,
  gateVerdict,
  updatedGateBaseline,
} from './retrieval-gate';
export type { GateBaseline, GateFit, GateFitted, GateRanker, GateRun, GateSubset } from './retrieval-gate';
export { expansionSamples, formatAdaptiveSavings, formatArms, formatFittedPolicy } from './adaptive-report';
export type { ArmRun } from './adaptive-report';
