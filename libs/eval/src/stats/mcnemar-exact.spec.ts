import { mcnemarExact } from './mcnemar-exact';

/** Builds paired outcomes with the given counts of (a, b) combinations. */
function pairs(counts: {
  both: number;
  onlyA: number;
  onlyB: number;
  neither: number;
}): [boolean[], boolean[]] {
  const a: boolean[] = [];
  const b: boolean[] = [];
  const push = (times: number, x: boolean, y: boolean) => {
    for (let i = 0; i < times; i++) {
      a.push(x);
      b.push(y);
    }
  };
  push(counts.both, true, true);
  push(counts.onlyA, true, false);
  push(counts.onlyB, false, true);
  push(counts.neither, false, false);
  return [a, b];
}

describe('mcnemarExact', () => {
  it('counts discordant pairs and tests them with an exact binomial', () => {
    // onlyA = 3, onlyB = 0: n = 3, m = 0 -> p = 2 * C(3,0) / 2^3 = 2/8 = 0.25
    expect(mcnemarExact([true, true, true, false, true], [false, false, false, false, true])).toEqual({
      onlyA: 3,
      onlyB: 0,
      pValue: 0.25,
    });
    // onlyA = 1, onlyB = 4: n = 5, m = 1 -> p = 2 * (1 + 5) / 32 = 0.375
    const [a, b] = pairs({ both: 2, onlyA: 1, onlyB: 4, neither: 3 });
    expect(mcnemarExact(a, b)).toEqual({ onlyA: 1, onlyB: 4, pValue: 0.375 });
  });

  it('sums the binomial tail for a medium table', () => {
    // n = 20, m = 5: C(20,0..5) = 1 + 20 + 190 + 1140 + 4845 + 15504 = 21700
    // p = 2 * 21700 / 2^20 = 43400 / 1048576 = 0.04138946533203125
    const [a, b] = pairs({ both: 0, onlyA: 15, onlyB: 5, neither: 0 });
    expect(mcnemarExact(a, b).pValue).toBeCloseTo(0.04138946533203125, 14);
  });

  it('stays accurate for 10,000 discordant pairs', () => {
    // n = 10000, m = 4900: normal approximation with continuity correction
    // z = (|5100 - 4900| - 1) / sqrt(10000) = 199 / 100 = 1.99 -> p ~ 2 * (1 - Phi(1.99)) = 0.0466
    // (exact rational arithmetic gives 0.0465855277049)
    const [a, b] = pairs({ both: 0, onlyA: 4900, onlyB: 5100, neither: 0 });
    const result = mcnemarExact(a, b);
    expect(result.onlyA).toBe(4900);
    expect(result.onlyB).toBe(5100);
    expect(result.pValue).toBeCloseTo(0.0465855277049, 10);
  });

  it('scales tiny p-values without overflow and underflows only below the double range', () => {
    // onlyA = 1074, onlyB = 0: p = 2 * C(1074, 0) / 2^1074 = 2^-1073 (a subnormal double, 1e-323)
    const [a, b] = pairs({ both: 0, onlyA: 1074, onlyB: 0, neither: 0 });
    expect(mcnemarExact(a, b).pValue).toBe(2 ** -1073);
    // onlyA = 0, onlyB = 10000: p = 2^-9999, far below the smallest double -> 0
    const [c, d] = pairs({ both: 0, onlyA: 0, onlyB: 10000, neither: 0 });
    expect(mcnemarExact(c, d).pValue).toBe(0);
  });

  it('caps p at 1 for balanced tables and returns 1 without discordant pairs', () => {
    // onlyA = onlyB = 2: 2 * (1 + 4 + 6) / 16 = 22/16 > 1 -> 1
    const [a, b] = pairs({ both: 1, onlyA: 2, onlyB: 2, neither: 1 });
    expect(mcnemarExact(a, b).pValue).toBe(1);
    // n = 0
    expect(mcnemarExact([true, false], [true, false])).toEqual({ onlyA: 0, onlyB: 0, pValue: 1 });
    expect(mcnemarExact([], [])).toEqual({ onlyA: 0, onlyB: 0, pValue: 1 });
  });

  it('requires paired samples of equal length', () => {
    expect(() => mcnemarExact([true], [true, false])).toThrow('same length, got 1 and 2');
  });
});
