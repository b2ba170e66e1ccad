/**
 * Quantile of an ascending-sorted array with linear interpolation between order statistics
 * (Hyndman & Fan type 7, the default of numpy and R): position h = (n - 1) * q.
 */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new RangeError('Cannot take a quantile of an empty array');
  if (!(q >= 0 && q <= 1)) throw new RangeError(`Quantile must be within [0, 1], got ${q}`);
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}
