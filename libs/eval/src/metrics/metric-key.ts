import type { MetricName, MetricSpec } from './types';

export const METRIC_NAMES: readonly MetricName[] = ['hit', 'recall', 'mrr', 'ndcg'];

const KEY_PATTERN = /^([a-z]+)@(\d+)$/;

/** Formats a metric spec as its key, e.g. `{ name: 'ndcg', k: 10 }` -> `ndcg@10`. */
export function formatMetricKey(spec: MetricSpec): string {
  return `${spec.name}@${spec.k}`;
}

/** Parses a key like `ndcg@10`, `hit@1`, `recall@100` or `mrr@10`. */
export function parseMetricKey(key: string): MetricSpec {
  const expected = `expected <metric>@<k> with metric one of ${METRIC_NAMES.join(', ')} and k a positive integer, e.g. "ndcg@10"`;
  const match = KEY_PATTERN.exec(key);
  if (!match) {
    throw new Error(`Invalid metric key "${key}": ${expected}`);
  }
  const [, name, digits] = match;
  if (!(METRIC_NAMES as readonly string[]).includes(name)) {
    throw new Error(`Unknown metric "${name}" in key "${key}": ${expected}`);
  }
  const k = Number(digits);
  if (!Number.isSafeInteger(k) || k < 1) {
    throw new Error(`Invalid cutoff in metric key "${key}": ${expected}`);
  }
  return { name: name as MetricName, k };
}
