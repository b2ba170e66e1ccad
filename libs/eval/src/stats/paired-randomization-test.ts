import { mulberry32 } from './mulberry32';
import type { RandomSource } from './mulberry32';
import { assertPositiveInteger, mean, pairedDifferences } from './validation';

export interface RandomizationOptions {
  /** Number of random sign assignments (default 10000). */
  iterations?: number;
  /** Seed of the mulberry32 generator (default 42). */
  seed?: number;
  /** Custom random source; overrides `seed` when given. */
  random?: RandomSource;
}

export interface RandomizationResult {
  /** Mean of b[i] - a[i]. */
  meanDiff: number;
  pValue: number;
}

/**
 * Two-sided paired randomization (sign-flip permutation) test of "a and b have the same mean".
 * Each iteration flips the sign of every paired difference b[i] - a[i] with probability 1/2 and counts how
 * often |mean| reaches the observed |mean|. p = (count + 1) / (iterations + 1).
 * When every difference is zero (or there are no pairs) there is no evidence of a difference: p = 1.
 */
export function pairedRandomizationTest(
  a: readonly number[],
  b: readonly number[],
  options: RandomizationOptions = {},
): RandomizationResult {
  const { iterations = 10000, seed = 42 } = options;
  assertPositiveInteger(iterations, 'iterations');
  const differences = pairedDifferences(a, b);
  const meanDiff = mean(differences);
  // zero differences do not change any signed sum, so only the others are flipped
  const nonZero = differences.filter((d) => d !== 0);
  if (nonZero.length === 0) return { meanDiff, pValue: 1 };

  const random = options.random ?? mulberry32(seed);
  let observed = 0;
  let scale = 0;
  for (const d of nonZero) {
    observed += d;
    scale += Math.abs(d);
  }
  // comparing sums (same n) is equivalent to comparing means; the tolerance keeps sign patterns that
  // reproduce the observed magnitude from being lost to rounding
  const threshold = Math.abs(observed) - 1e-9 * scale;
  let count = 0;
  for (let i = 0; i < iterations; i++) {
    let sum = 0;
    for (const d of nonZero) {
      sum += random() < 0.5 ? -d : d;
    }
    if (Math.abs(sum) >= threshold) count++;
  }
  return { meanDiff, pValue: (count + 1) / (iterations + 1) };
}
