import { wilsonInterval } from './wilson-interval';

describe('wilsonInterval', () => {
  it('matches the Wilson score formula', () => {
    // s = 8, n = 10, z = 1.96: p = 0.8, z^2 = 3.8416, denom = 1 + 3.8416/10 = 1.38416
    // center = (0.8 + 3.8416/20) / 1.38416 = 0.99208 / 1.38416 = 0.7167379
    // half = 1.96 * sqrt(0.8*0.2/10 + 3.8416/400) / 1.38416 = 1.96 * sqrt(0.025604) / 1.38416 = 0.2265811
    // low = 0.4901568, high = 0.9433191
    const interval = wilsonInterval(8, 10, 1.96);
    expect(interval.estimate).toBe(0.8);
    expect(interval.low).toBeCloseTo(0.4901568, 6);
    expect(interval.high).toBeCloseTo(0.9433191, 6);
  });

  it('uses z = 1.959963984540054 (95%) by default', () => {
    // same formula with the exact 97.5% normal quantile: low = 0.4901625, high = 0.9433178
    const interval = wilsonInterval(8, 10);
    expect(interval.low).toBeCloseTo(0.4901625, 6);
    expect(interval.high).toBeCloseTo(0.9433178, 6);
  });

  it('pins the bound at 0 for no successes and at 1 for all successes', () => {
    // s = 0, n = 10, z = 1.96: center = half = 0.19208 / 1.38416, so low = 0 and high = 0.38416 / 1.38416 = 0.2775402
    expect(wilsonInterval(0, 10, 1.96)).toEqual({ estimate: 0, low: 0, high: expect.closeTo(0.2775402, 6) });
    // s = n = 10 mirrors it: low = 1 - 0.2775402 = 0.7224598, high = 1
    expect(wilsonInterval(10, 10, 1.96)).toEqual({ estimate: 1, low: expect.closeTo(0.7224598, 6), high: 1 });
  });

  it('returns the whole range when there are no trials', () => {
    expect(wilsonInterval(0, 0)).toEqual({ estimate: 0, low: 0, high: 1 });
  });

  it('rejects impossible counts', () => {
    expect(() => wilsonInterval(11, 10)).toThrow('within [0, 10]');
    expect(() => wilsonInterval(-1, 10)).toThrow('within [0, 10]');
    expect(() => wilsonInterval(1, 2.5)).toThrow('non-negative integer');
    expect(() => wilsonInterval(1, 2, 0)).toThrow('positive');
  });
});
