import { mulberry32 } from './mulberry32';
import type { RandomSource } from './mulberry32';
import { quantileSorted } from './quantile';
import { assertFiniteValues, assertPositiveInteger, mean, pairedDifferences } from './validation';

export interface BootstrapOptions {
  /** Number of resamples (default 2000). */
  iterations?: number;
  /** Two-sided confidence level in (0, 1) (default 0.95). */
  confidence?: number;
  /** Seed of the mulberry32 generator (default 42). */
  seed?: number;
  /** Custom random source; overrides `seed` when given. */
  random?: RandomSource;
}

export interface MeanInterval {
  mean: number;
  low: number;
  high: number;
}

export interface MeanDifferenceInterval {
  /** Mean of b[i] - a[i]. */
  meanDiff: number;
  low: number;
  high: number;
}

/**
 * Percentile bootstrap confidence interval for the mean: resample the values with replacement `iterations`
 * times, and take the (1 - confidence) / 2 and (1 + confidence) / 2 quantiles (linear interpolation) of the
 * resampled means. Throws on an empty sample, which has no mean.
 */
export function bootstrapMeanInterval(
  values: readonly number[],
  options: BootstrapOptions = {},
): MeanInterval {
  const { iterations = 2000, confidence = 0.95, seed = 42 } = options;
  assertPositiveInteger(iterations, 'iterations');
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`confidence must be within (0, 1), got ${confidence}`);
  }
  if (values.length === 0) throw new RangeError('Cannot bootstrap an empty sample');
  assertFiniteValues(values, 'values');

  const random = options.random ?? mulberry32(seed);
  const n = values.length;
  const means: number[] = new Array(iterations);
  for (let i = 0; i < iterations; i++) {
    let sum = 0;
    for (let j = 0; j < n; j++) {
      sum += values[Math.min(n - 1, Math.floor(random() * n))];
    }
    means[i] = sum / n;
  }
  means.sort((x, y) => x - y);
  const alpha = 1 - confidence;
  return {
    mean: mean(values),
    low: quantileSorted(means, alpha / 2),
    high: quantileSorted(means, 1 - alpha / 2),
  };
}

/**
 * Paired percentile bootstrap interval for the mean difference b - a (pairs are resampled together, i.e. the
 * per-pair differences are bootstrapped). Arrays must have the same, non-zero length.
 */
export function pairedBootstrapInterval(
  a: readonly number[],
  b: readonly number[],
  options: BootstrapOptions = {},
): MeanDifferenceInterval {
  const { mean: meanDiff, low, high } = bootstrapMeanInterval(pairedDifferences(a, b), options);
  return { meanDiff, low, high };
}
