import { pairedRandomizationTest } from './paired-randomization-test';

describe('pairedRandomizationTest', () => {
  it('counts sign patterns at least as extreme as observed, with +1 smoothing', () => {
    // differences b - a = [1, 1, 1], observed |sum| = 3, meanDiff = 1
    // feed all 2^3 sign patterns once (r < 0.5 flips): only +++ and --- reach |sum| = 3 -> count 2
    // p = (2 + 1) / (8 + 1) = 1/3
    const patterns: number[] = [];
    for (let pattern = 0; pattern < 8; pattern++) {
      for (let bit = 0; bit < 3; bit++) patterns.push(pattern & (1 << bit) ? 0.25 : 0.75);
    }
    let index = 0;
    const random = () => patterns[index++];
    const result = pairedRandomizationTest([0, 0, 0], [1, 1, 1], { iterations: 8, random });
    expect(result).toEqual({ meanDiff: 1, pValue: 1 / 3 });
  });

  it('approaches the exact permutation p-value with the default seed', () => {
    // differences b - a = [3, -1, 2, 0.5], observed sum 4.5, meanDiff = 4.5 / 4 = 1.125
    // 16 sign patterns of +-3 +-1 +-2 +-0.5; |sum| >= 4.5 for 6.5, 5.5, 4.5 and their negatives -> 6/16 = 0.375
    // Monte Carlo sd with 10,000 draws = sqrt(0.375 * 0.625 / 10000) = 0.0048; allow 0.02
    const result = pairedRandomizationTest([0, 1, 0, 0], [3, 0, 2, 0.5]);
    expect(result.meanDiff).toBe(1.125);
    expect(Math.abs(result.pValue - 0.375)).toBeLessThan(0.02);
    expect(pairedRandomizationTest([0, 1, 0, 0], [3, 0, 2, 0.5])).toEqual(result);
  });

  it('reports the mean difference as b - a', () => {
    // (0.7 - 0.5 + 0.6 - 0.2) / 2 = (0.2 + 0.4) / 2 = 0.3
    expect(pairedRandomizationTest([0.5, 0.2], [0.7, 0.6], { iterations: 10 }).meanDiff).toBeCloseTo(0.3, 12);
  });

  it('gives p = 1 when every difference is zero', () => {
    expect(pairedRandomizationTest([0.3, 0.5], [0.3, 0.5])).toEqual({ meanDiff: 0, pValue: 1 });
    expect(pairedRandomizationTest([], [])).toEqual({ meanDiff: 0, pValue: 1 });
  });

  it('keeps patterns equal to the observed sum despite rounding', () => {
    // differences [0.1, 0.2]: 0.1 + 0.2 = 0.30000000000000004 in floating point; 4 patterns, r < 0.5 flips
    // ++ -> 0.3 (kept), -- -> -0.3 (kept), +- and -+ -> |0.1| (not) -> count 2, p = (2 + 1) / (4 + 1) = 0.6
    const draws = [0.75, 0.75, 0.25, 0.25, 0.75, 0.25, 0.25, 0.75];
    let index = 0;
    const result = pairedRandomizationTest([0, 0], [0.1, 0.2], {
      iterations: 4,
      random: () => draws[index++],
    });
    expect(result.pValue).toBeCloseTo(0.6, 12);
  });

  it('validates its inputs', () => {
    expect(() => pairedRandomizationTest([1], [1, 2])).toThrow('same length');
    expect(() => pairedRandomizationTest([1], [2], { iterations: -5 })).toThrow('iterations');
  });
});
