import type { SeededRandom } from './seeded-random';

/**
 * Draws ranks 0..n-1 with P(rank r) ∝ 1 / (r + 1)^s — Zipf's law, the shape of word frequencies in
 * real text (s ≈ 1): a few words are everywhere, most are rare. Inverse CDF by binary search.
 */
export class ZipfSampler {
  private readonly cdf: Float64Array;

  constructor(
    readonly size: number,
    readonly exponent: number,
  ) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`size must be a positive integer, got ${size}`);
    this.cdf = new Float64Array(size);
    let total = 0;
    for (let r = 0; r < size; r++) {
      total += 1 / Math.pow(r + 1, exponent);
      this.cdf[r] = total;
    }
    for (let r = 0; r < size; r++) this.cdf[r] /= total;
  }

  /** Probability of rank r. */
  probability(rank: number): number {
    return rank === 0 ? this.cdf[0] : this.cdf[rank] - this.cdf[rank - 1];
  }

  sample(random: SeededRandom): number {
    const u = random.next();
    let lo = 0;
    let hi = this.size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
