import { holmAdjust } from './holm-adjust';

describe('holmAdjust', () => {
  it('applies the step-down multipliers and enforces monotonicity, in input order', () => {
    // sorted: 0.005 (x4 = 0.02), 0.01 (x3 = 0.03), 0.03 (x2 = 0.06), 0.04 (x1 = 0.04 -> raised to 0.06)
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((expected, index) => expect(adjusted[index]).toBeCloseTo(expected, 12));
  });

  it('caps at 1', () => {
    // 0.5 x2 = 1.0; 0.6 x1 = 0.6 -> raised to 1
    expect(holmAdjust([0.6, 0.5])).toEqual([1, 1]);
    // 0.7 x2 = 1.4 -> 1
    expect(holmAdjust([0.7, 0.9])).toEqual([1, 1]);
  });

  it('handles ties, a single value and an empty list', () => {
    // ties: 0.02 x2 = 0.04, 0.02 x1 = 0.02 -> raised to 0.04
    expect(holmAdjust([0.02, 0.02])).toEqual([0.04, 0.04]);
    expect(holmAdjust([0.2])).toEqual([0.2]);
    expect(holmAdjust([])).toEqual([]);
  });

  it('rejects values that are not probabilities', () => {
    expect(() => holmAdjust([0.1, 1.2])).toThrow('pValues[1]');
    expect(() => holmAdjust([Number.NaN])).toThrow('pValues[0]');
  });
});
