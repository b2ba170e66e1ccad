export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
}

/** Nearest-rank percentiles of a set of timings (ms). */
export function summarizeLatency(timings: readonly number[]): LatencySummary {
  if (timings.length === 0) return { count: 0, p50: NaN, p95: NaN, p99: NaN, mean: NaN, max: NaN };
  const sorted = [...timings].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
  return {
    count: sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    mean: sorted.reduce((sum, t) => sum + t, 0) / sorted.length,
    max: sorted[sorted.length - 1],
  };
}
