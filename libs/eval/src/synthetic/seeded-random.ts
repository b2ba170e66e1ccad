import { mulberry32 } from '@lumina/rag';
import type { RandomSource } from '@lumina/rag';

/**
 * A small deterministic random source (mulberry32) with the draws a synthetic corpus needs: the same seed
 * gives the same corpus and queries on every machine, so two runs (or two storage types) see identical data.
 */
export class SeededRandom {
  private readonly uniform: RandomSource;
  private spareGaussian: number | null = null;

  constructor(seed: number) {
    this.uniform = mulberry32(seed);
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uniform();
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Uniform integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** Standard normal (Box–Muller, the second value kept for the next call). */
  gaussian(): number {
    if (this.spareGaussian !== null) {
      const spare = this.spareGaussian;
      this.spareGaussian = null;
      return spare;
    }
    const u = 1 - this.next();
    const v = this.next();
    const radius = Math.sqrt(-2 * Math.log(u));
    this.spareGaussian = radius * Math.sin(2 * Math.PI * v);
    return radius * Math.cos(2 * Math.PI * v);
  }

  /** A uniformly random direction on the unit sphere in `dimension` dimensions. */
  unitVector(dimension: number): Float64Array {
    const vector = new Float64Array(dimension);
    for (let i = 0; i < dimension; i++) vector[i] = this.gaussian();
    return normalizeInPlace(vector);
  }
}

export function normalizeInPlace<T extends Float64Array | Float32Array>(vector: T): T {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i] * vector[i];
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < vector.length; i++) vector[i] /= norm;
  return vector;
}
