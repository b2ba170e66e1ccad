import { evaluateRun } from '../metrics/evaluate-run';
import { parseMetricKey } from '../metrics/metric-key';
import type { Qrels } from '../metrics/types';
import { REPORT_METRICS } from './retrieval-report';
import { metricInterval } from './retrieval-report';
import type { MetricInterval, ReportMetric, RetrievalReport } from './retrieval-report';

export interface EvalQuery {
  id: string;
  text: string;
}

export interface RetrievalEvalInput {
  dataset: string;
  split: string;
  ranker: string;
  settings: Record<string, unknown>;
  queries: EvalQuery[];
  qrels: Qrels;
  /** Ranked document ids for a query, best first (a retrieved chunk counts for its document). */
  search: (query: EvalQuery) => Promise<string[]>;
  onProgress?: (done: number, total: number) => void;
  /** Queries searched at once. */
  concurrency?: number;
  now?: () => number;
}

/** Run every query through the search, score the rankings against the qrels, attach intervals. */
export async function runRetrievalEval(input: RetrievalEvalInput): Promise<RetrievalReport> {
  const now = input.now ?? (() => performance.now());
  const rankings = new Array<string[]>(input.queries.length);
  const latencies = new Array<number>(input.queries.length);
  let next = 0;
  let done = 0;
  const started = now();
  const worker = async () => {
    while (next < input.queries.length) {
      const index = next++;
      const t0 = now();
      rankings[index] = await input.search(input.queries[index]);
      latencies[index] = now() - t0;
      input.onProgress?.(++done, input.queries.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, input.concurrency ?? 1) }, worker));
  const totalMs = now() - started;

  const evaluation = evaluateRun(
    input.queries.map((query, i) => ({ queryId: query.id, ranking: rankings[i] })),
    input.qrels,
    REPORT_METRICS.map((key) => parseMetricKey(key)),
  );
  const rankingById = new Map(input.queries.map((query, i) => [query.id, rankings[i]]));
  const metrics = {} as Record<ReportMetric, number>;
  const intervals = {} as Record<ReportMetric, MetricInterval>;
  for (const key of REPORT_METRICS) {
    metrics[key] = evaluation.means[key] ?? 0;
    intervals[key] = metricInterval(
      key,
      evaluation.perQuery.map((q) => q.metrics[key]),
    );
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    suite: 'retrieval',
    dataset: input.dataset,
    split: input.split,
    ranker: input.ranker,
    settings: input.settings,
    queries: evaluation.queries,
    metrics,
    intervals,
    timings: {
      queryTotalMs: round(totalMs),
      queryP50Ms: round(percentile(sorted, 0.5)),
      queryP95Ms: round(percentile(sorted, 0.95)),
    },
    perQuery: evaluation.perQuery.map((q) => ({
      ...q,
      ranking: (rankingById.get(q.queryId) ?? []).slice(0, 100),
    })),
  };
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
