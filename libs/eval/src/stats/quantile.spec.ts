import { quantileSorted } from './quantile';

describe('quantileSorted', () => {
  const sorted = [10, 20, 30, 40];

  it('interpolates linearly between order statistics at h = (n - 1) * q', () => {
    // q = 0.5: h = 1.5 -> 20 + 0.5 * (30 - 20) = 25
    expect(quantileSorted(sorted, 0.5)).toBe(25);
    // q = 0.1: h = 0.3 -> 10 + 0.3 * 10 = 13
    expect(quantileSorted(sorted, 0.1)).toBeCloseTo(13, 12);
    // ends: q = 0 -> 10, q = 1 -> 40
    expect(quantileSorted(sorted, 0)).toBe(10);
    expect(quantileSorted(sorted, 1)).toBe(40);
  });

  it('returns the only value of a single-element array', () => {
    expect(quantileSorted([7], 0.3)).toBe(7);
  });

  it('rejects empty input and out-of-range quantiles', () => {
    expect(() => quantileSorted([], 0.5)).toThrow('empty');
    expect(() => quantileSorted(sorted, 1.5)).toThrow('[0, 1]');
    expect(() => quantileSorted(sorted, Number.NaN)).toThrow('[0, 1]');
  });
});
