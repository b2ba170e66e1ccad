export interface ProportionInterval {
  /** Observed proportion successes / n. */
  estimate: number;
  low: number;
  high: number;
}

/** z for a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;

/**
 * Wilson score interval for a binomial proportion.
 * With n = 0 nothing is known, so the interval is the whole range: { low: 0, high: 1, estimate: 0 }.
 */
export function wilsonInterval(successes: number, n: number, z: number = Z_95): ProportionInterval {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${n}`);
  if (!Number.isInteger(successes) || successes < 0 || successes > n) {
    throw new RangeError(`successes must be an integer within [0, ${n}], got ${successes}`);
  }
  if (!(z > 0) || !Number.isFinite(z)) throw new RangeError(`z must be a positive finite number, got ${z}`);
  if (n === 0) return { estimate: 0, low: 0, high: 1 };

  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return {
    estimate: p,
    // the bounds are exactly 0 / 1 at the extremes; clamping also absorbs rounding error
    low: successes === 0 ? 0 : Math.max(0, center - half),
    high: successes === n ? 1 : Math.min(1, center + half),
  };
}
