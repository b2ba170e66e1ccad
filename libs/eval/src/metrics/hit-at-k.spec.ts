import { hitAtK } from './hit-at-k';

const relevant = new Map([
  ['d1', 1],
  ['d2', 0], // judged not relevant
]);

describe('hitAtK', () => {
  it('is 1 when a positively graded document is within the cutoff', () => {
    // ranking x, d2, d1: first relevant (d1) at rank 3 <= 3
    expect(hitAtK(['x', 'd2', 'd1'], relevant, 3)).toBe(1);
  });

  it('is 0 when the relevant document sits just past the cutoff', () => {
    // d1 at rank 3 > k = 2; d2 has grade 0 so it does not count
    expect(hitAtK(['x', 'd2', 'd1'], relevant, 2)).toBe(0);
  });

  it('is 0 for an empty ranking', () => {
    expect(hitAtK([], relevant, 10)).toBe(0);
  });

  it('ignores repeated ids before cutting', () => {
    // x, x, d1 deduplicates to x, d1: d1 at rank 2 <= 2
    expect(hitAtK(['x', 'x', 'd1'], relevant, 2)).toBe(1);
  });

  it('rejects a cutoff that is not a positive integer', () => {
    expect(() => hitAtK(['d1'], relevant, 0)).toThrow('positive integer');
    expect(() => hitAtK(['d1'], relevant, 2.5)).toThrow('positive integer');
  });
});
