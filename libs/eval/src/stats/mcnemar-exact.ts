import { assertSameLength } from './validation';

export interface McNemarResult {
  /** Pairs where only a succeeded. */
  onlyA: number;
  /** Pairs where only b succeeded. */
  onlyB: number;
  pValue: number;
}

/**
 * Exact (binomial) McNemar test on paired binary outcomes, two-sided:
 * with n = onlyA + onlyB discordant pairs and m = min(onlyA, onlyB),
 * p = min(1, 2 * sum_{i <= m} C(n, i) / 2^n); p = 1 when there are no discordant pairs.
 */
export function mcnemarExact(a: readonly boolean[], b: readonly boolean[]): McNemarResult {
  assertSameLength(a, b);
  let onlyA = 0;
  let onlyB = 0;
  a.forEach((value, index) => {
    if (value && !b[index]) onlyA++;
    else if (!value && b[index]) onlyB++;
  });
  return { onlyA, onlyB, pValue: binomialTwoSidedP(onlyA + onlyB, Math.min(onlyA, onlyB)) };
}

/**
 * 2 * P(X <= m) for X ~ Binomial(n, 1/2), capped at 1. The tail sum is exact (BigInt) and only the final
 * conversion to a double rounds, so the result is accurate to about one ulp however large n is.
 */
function binomialTwoSidedP(n: number, m: number): number {
  // for m >= n / 2 the lower tail holds at least half the mass, so 2 * tail >= 1
  if (n === 0 || 2 * m >= n) return 1;
  const bigN = BigInt(n);
  let term = 1n; // C(n, 0)
  let tail = 1n;
  for (let i = 1n; i <= BigInt(m); i++) {
    term = (term * (bigN - i + 1n)) / i; // exact: C(n, i) = C(n, i - 1) * (n - i + 1) / i
    tail += term;
  }
  // p = 2 * tail / 2^n = tail / 2^(n - 1)
  return Math.min(1, bigRatioToPowerOfTwo(tail, n - 1));
}

/** value / 2^exponent as a double, for a positive BigInt value of any size. */
function bigRatioToPowerOfTwo(value: bigint, exponent: number): number {
  const bits = value.toString(2).length;
  const shift = Math.max(0, bits - 64);
  const mantissa = Number(value >> BigInt(shift));
  return scaleByPowerOfTwo(mantissa, shift - exponent);
}

/** x * 2^e without intermediate overflow or underflow of the power. */
function scaleByPowerOfTwo(x: number, e: number): number {
  let result = x;
  let remaining = e;
  while (remaining > 1000) {
    result *= 2 ** 1000;
    remaining -= 1000;
  }
  while (remaining < -1000) {
    result *= 2 ** -1000;
    remaining += 1000;
  }
  return result * 2 ** remaining;
}
