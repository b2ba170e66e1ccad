import { bootstrapMeanInterval } from '../stats/bootstrap-interval';
import { wilsonInterval } from '../stats/wilson-interval';
import type { QueryEvaluation } from '../metrics/evaluate-run';

export const REPORT_METRICS = ['ndcg@10', 'recall@100', 'mrr@10', 'hit@1', 'hit@5'] as const;
export type ReportMetric = (typeof REPORT_METRICS)[number];

export interface MetricInterval {
  low: number;
  high: number;
  /** 'wilson' for hit rates, 'bootstrap' for means. */
  method: 'wilson' | 'bootstrap';
}

/** The JSON the eval command writes (`--json`) and compares (`--compare`). */
export interface RetrievalReport {
  suite: 'retrieval';
  dataset: string;
  split: string;
  ranker: string;
  settings: Record<string, unknown>;
  queries: number;
  metrics: Record<ReportMetric, number>;
  intervals: Record<ReportMetric, MetricInterval>;
  timings: Record<string, number>;
  perQuery: (QueryEvaluation & { ranking: string[] })[];
}

/**
 * The 95% interval of one metric over per-query values: Wilson for hit@k (a proportion), a bootstrap of
 * the mean for the others; no values, no width.
 */
export function metricInterval(key: string, values: number[]): MetricInterval {
  if (key.startsWith('hit@')) {
    const interval = wilsonInterval(values.filter((v) => v > 0).length, values.length);
    return { low: interval.low, high: interval.high, method: 'wilson' };
  }
  const interval = values.length ? bootstrapMeanInterval(values) : { low: 0, high: 0 };
  return { low: interval.low, high: interval.high, method: 'bootstrap' };
}
