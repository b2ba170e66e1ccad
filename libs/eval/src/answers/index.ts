export {
  answerMetrics,
  answerSupported,
  citationPrecision,
  quotesGold,
  rateInterval,
} from './answer-metrics';
export { checkCitations, markerQuotes, passageHoldsQuote } from './citation-precision';
export type { CitationCheck, MarkerQuote } from './citation-precision';
export type { AnsweredItem } from './answer-metrics';
export { leaveGoldOut } from './leave-gold-out';
export type { LeaveGoldOutSplit } from './leave-gold-out';
export { beirLeaveGoldOut } from './answerability-source';
export type { AnswerabilityQuestion, AnswerabilitySource } from './answerability-source';
export { AnswerJudge } from './answer-judge';
export {
  ANSWER_METRICS,
  IncomparableReportsError,
  assertComparable,
  compareAnswersReports,
  formatAnswersComparison,
  formatAnswersReport,
  itemOutcomes,
  summariseAnswers,
} from './answers-report';
export type {
  AnswerItemResult,
  AnswerMetric,
  AnswerMetricComparison,
  AnswersComparison,
  AnswersReport,
  MetricSummary,
} from './answers-report';
export { JUDGE_PROMPT_VERSION, judgeMessages, parseJudgeVerdict } from './judge-prompt';
export type { JudgeVerdict, JudgedPassage } from './judge-prompt';
