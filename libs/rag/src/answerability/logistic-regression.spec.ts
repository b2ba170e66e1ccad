import { fitLogistic, sigmoid, solve } from './logistic-regression';

describe('logistic regression', () => {
  it('solves small linear systems', () => {
    expect(
      solve(
        [
          [2, 1],
          [1, 3],
        ],
        [3, 5],
      ).map((v) => Math.round(v * 1e9) / 1e9),
    ).toEqual([0.8, 1.4]);
    expect(() =>
      solve(
        [
          [1, 2],
          [2, 4],
        ],
        [1, 2],
      ),
    ).toThrow(RangeError);
  });

  it('recovers the feature that decides the label and ignores noise', () => {
    const rows: number[][] = [];
    const labels: (0 | 1)[] = [];
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    for (let i = 0; i < 400; i++) {
      const signal = random();
      const noise = random();
      rows.push([signal, noise]);
      labels.push(signal + 0.1 * random() > 0 ? 1 : 0);
    }
    const fit = fitLogistic(rows, labels, { l2: 0.1 });
    expect(fit.converged).toBe(true);
    expect(fit.weights[0]).toBeGreaterThan(5);
    expect(Math.abs(fit.weights[1])).toBeLessThan(1);
    expect(sigmoid(fit.weights[0] * 0.5 + fit.bias)).toBeGreaterThan(0.9);
  });

  it('is deterministic and honours sample weights', () => {
    const rows = [[0], [1], [2], [3]];
    const labels: (0 | 1)[] = [0, 0, 1, 1];
    expect(fitLogistic(rows, labels)).toEqual(fitLogistic(rows, labels));
    const heavyNegatives = fitLogistic(rows, labels, {}, [10, 10, 1, 1]);
    expect(heavyNegatives.bias).toBeLessThan(fitLogistic(rows, labels).bias);
  });

  it('refuses mismatched or empty input', () => {
    expect(() => fitLogistic([[1]], [1, 0])).toThrow(RangeError);
    expect(() => fitLogistic([], [])).toThrow(RangeError);
  });
});
