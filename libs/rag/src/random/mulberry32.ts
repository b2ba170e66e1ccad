/** A source of uniform numbers in [0, 1), like Math.random. */
export type RandomSource = () => number;

/**
 * Mulberry32: a small, fast, seeded 32-bit PRNG. The same seed always yields the same sequence, which keeps
 * tests and evaluation reports reproducible. Not suitable for cryptography.
 * The seed is reduced to an unsigned 32-bit integer (fractional parts are dropped).
 */
export function mulberry32(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
