export type { MetricName, MetricSpec, Qrels, QueryRun } from './types';
export { dedupeRanking, documentRanking } from './dedupe-ranking';
export { hitAtK } from './hit-at-k';
export { recallAtK } from './recall-at-k';
export { mrrAtK } from './mrr-at-k';
export { ndcgAtK } from './ndcg-at-k';
export { METRIC_NAMES, formatMetricKey, parseMetricKey } from './metric-key';
export { evaluateRun } from './evaluate-run';
export type { QueryEvaluation, RunEvaluation } from './evaluate-run';
