export {
  datasetHash,
  evaluateBankItems,
  itemJudgments,
  relevanceLevel,
  searchRefused,
} from './bank-evaluation';
export type { BankEvaluation, BankEvaluationInput, EvaluableItem, WrittenAnswer } from './bank-evaluation';
export { compareEvalRuns } from './compare-eval-runs';
export type { ComparableRun } from './compare-eval-runs';
