/** Area under the ROC curve: the chance a random positive scores above a random negative (ties ½). */
export function rocAuc(positives: readonly number[], negatives: readonly number[]): number | null {
  if (positives.length === 0 || negatives.length === 0) return null;
  const all = [
    ...positives.map((score) => ({ score, positive: true })),
    ...negatives.map((score) => ({ score, positive: false })),
  ].sort((a, b) => a.score - b.score);
  // Mann–Whitney U with mid-ranks for ties.
  let rankSum = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j < all.length && all[j].score === all[i].score) j++;
    const midRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (all[k].positive) rankSum += midRank;
    i = j;
  }
  const u = rankSum - (positives.length * (positives.length + 1)) / 2;
  return u / (positives.length * negatives.length);
}

export interface OperatingPoint {
  threshold: number;
  /** In-scope items scored under the threshold (refused). */
  inScopeRefused: number;
  /** Out-of-scope items scored at or above it (answered). */
  outOfScopeAnswered: number;
}

/** Refusal rates at a threshold: score < threshold is refused. */
export function operatingPoint(
  inScope: readonly number[],
  outOfScope: readonly number[],
  threshold: number,
): OperatingPoint {
  const rate = (values: readonly number[], pick: (v: number) => boolean) =>
    values.length ? values.filter(pick).length / values.length : 0;
  return {
    threshold,
    inScopeRefused: rate(inScope, (s) => s < threshold),
    outOfScopeAnswered: rate(outOfScope, (s) => s >= threshold),
  };
}

/**
 * The highest threshold whose false-refusal rate on the in-scope scores stays within `target`: it refuses
 * as many out-of-scope questions as the target allows. The threshold sits halfway between the last
 * in-scope score it may refuse and the next one, so a score equal to a gold item's is not a tie.
 */
export function thresholdForTarget(inScope: readonly number[], target: number): number {
  if (inScope.length === 0) throw new RangeError('no in-scope scores');
  const sorted = [...inScope].sort((a, b) => a - b);
  const refusable = Math.floor(target * sorted.length);
  if (refusable === 0) return sorted[0] - 1e-9 > 0 ? sorted[0] * (1 - 1e-6) : 0;
  const last = sorted[refusable - 1];
  const next = sorted[refusable];
  return (last + next) / 2;
}

/** The trade-off curve: false refusals against false answers at each threshold, for the report. */
export function tradeOffCurve(
  inScope: readonly number[],
  outOfScope: readonly number[],
  thresholds: readonly number[] = Array.from({ length: 19 }, (_, i) => (i + 1) / 20),
): OperatingPoint[] {
  return thresholds.map((t) => operatingPoint(inScope, outOfScope, t));
}
