import { operatingPoint, rocAuc, thresholdForTarget, tradeOffCurve } from './calibration';

describe('calibration', () => {
  it('computes AUC with ties as halves', () => {
    expect(rocAuc([0.9, 0.8], [0.1, 0.2])).toBe(1);
    expect(rocAuc([0.1], [0.9])).toBe(0);
    expect(rocAuc([0.5], [0.5])).toBe(0.5);
    expect(rocAuc([0.9, 0.4], [0.5, 0.1])).toBe(0.75);
    expect(rocAuc([], [0.1])).toBeNull();
  });

  it('picks the highest threshold within the false-refusal target', () => {
    const inScope = Array.from({ length: 20 }, (_, i) => (i + 1) / 20); // 0.05 … 1
    const t = thresholdForTarget(inScope, 0.1); // may refuse 2 of 20
    expect(t).toBeCloseTo(0.125);
    expect(operatingPoint(inScope, [0.05, 0.11, 0.5], t)).toEqual({
      threshold: t,
      inScopeRefused: 0.1,
      outOfScopeAnswered: 1 / 3,
    });
    expect(thresholdForTarget(inScope, 0)).toBeLessThan(0.05);
  });

  it('draws the trade-off curve: refusals rise and false answers fall with the threshold', () => {
    const curve = tradeOffCurve([0.2, 0.6, 0.9], [0.1, 0.3, 0.7], [0.25, 0.5, 0.8]);
    expect(curve.map((p) => [p.inScopeRefused, p.outOfScopeAnswered])).toEqual([
      [1 / 3, 2 / 3],
      [1 / 3, 1 / 3],
      [2 / 3, 0],
    ]);
  });
});
