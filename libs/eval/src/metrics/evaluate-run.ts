import { countRelevant, isRelevant } from './cutoff';
import { dedupeRanking } from './dedupe-ranking';
import { hitAtK } from './hit-at-k';
import { formatMetricKey } from './metric-key';
import { mrrAtK } from './mrr-at-k';
import { ndcgAtK } from './ndcg-at-k';
import { recallAtK } from './recall-at-k';
import type { MetricName, MetricSpec, Qrels, QueryRun } from './types';

export interface QueryEvaluation {
  queryId: string;
  /** Metric key (e.g. `ndcg@10`) -> score. */
  metrics: Record<string, number>;
  /** 1-based rank of the first relevant document in the whole deduplicated ranking, or null. */
  firstRelevantRank: number | null;
  /** Number of judged documents with a positive grade. */
  relevantCount: number;
}

export interface RunEvaluation {
  perQuery: QueryEvaluation[];
  /** Metric key -> mean over the evaluated queries (0 when no query could be evaluated). */
  means: Record<string, number>;
  /** Number of evaluated queries. */
  queries: number;
  /** Query ids left out because they have no relevant judged document. */
  skipped: string[];
}

type MetricFn = (ranking: readonly string[], relevant: ReadonlyMap<string, number>, k: number) => number;

const METRICS: Record<MetricName, MetricFn> = {
  hit: hitAtK,
  recall: recallAtK,
  mrr: mrrAtK,
  ndcg: ndcgAtK,
};

const NO_JUDGMENTS: ReadonlyMap<string, number> = new Map();

/**
 * Scores a run against qrels.
 *
 * - Queries are taken in run order, followed by queries that appear only in the qrels (qrels order).
 * - A query in the qrels but missing from the run counts as an empty ranking (scores 0).
 * - Queries without any relevant judged document (including run queries absent from the qrels) are
 *   skipped and listed in `skipped`, as BEIR / trec_eval do.
 * - Rankings are deduplicated (first occurrence wins) before scoring.
 */
export function evaluateRun(
  runs: readonly QueryRun[],
  qrels: Qrels,
  spec: readonly MetricSpec[],
): RunEvaluation {
  const specs = uniqueSpecs(spec);
  const rankings = new Map<string, readonly string[]>();
  for (const run of runs) {
    if (rankings.has(run.queryId)) {
      throw new Error(`Run contains query "${run.queryId}" more than once`);
    }
    rankings.set(run.queryId, run.ranking);
  }
  const queryIds = [...rankings.keys()];
  for (const queryId of qrels.keys()) {
    if (!rankings.has(queryId)) queryIds.push(queryId);
  }

  const perQuery: QueryEvaluation[] = [];
  const skipped: string[] = [];
  const sums: Record<string, number> = Object.fromEntries(specs.map(([key]) => [key, 0]));

  for (const queryId of queryIds) {
    const relevant = qrels.get(queryId) ?? NO_JUDGMENTS;
    const relevantCount = countRelevant(relevant);
    if (relevantCount === 0) {
      skipped.push(queryId);
      continue;
    }
    const ranking = dedupeRanking(rankings.get(queryId) ?? []);
    const metrics: Record<string, number> = {};
    for (const [key, { name, k }] of specs) {
      const value = METRICS[name](ranking, relevant, k);
      metrics[key] = value;
      sums[key] += value;
    }
    const firstIndex = ranking.findIndex((id) => isRelevant(relevant.get(id)));
    perQuery.push({
      queryId,
      metrics,
      firstRelevantRank: firstIndex === -1 ? null : firstIndex + 1,
      relevantCount,
    });
  }

  const count = perQuery.length;
  const means: Record<string, number> = {};
  for (const [key] of specs) {
    means[key] = count === 0 ? 0 : sums[key] / count;
  }
  return { perQuery, means, queries: count, skipped };
}

function uniqueSpecs(spec: readonly MetricSpec[]): [string, MetricSpec][] {
  const byKey = new Map<string, MetricSpec>();
  for (const item of spec) {
    if (!Object.hasOwn(METRICS, item.name)) {
      throw new Error(
        `Unknown metric "${String(item.name)}"; expected one of ${Object.keys(METRICS).join(', ')}`,
      );
    }
    if (!Number.isInteger(item.k) || item.k < 1) {
      throw new RangeError(
        `Rank cutoff k must be a positive integer, got ${item.k} for metric "${item.name}"`,
      );
    }
    byKey.set(formatMetricKey(item), { name: item.name, k: item.k });
  }
  return [...byKey.entries()];
}
