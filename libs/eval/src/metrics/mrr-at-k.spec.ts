import { mrrAtK } from './mrr-at-k';

const relevant = new Map([
  ['d1', 1],
  ['d2', 3],
  ['d0', 0],
]);

describe('mrrAtK', () => {
  it('is the reciprocal rank of the first relevant document', () => {
    // d0 (grade 0) at rank 1, x at rank 2, d2 at rank 3 -> 1 / 3
    expect(mrrAtK(['d0', 'x', 'd2', 'd1'], relevant, 10)).toBeCloseTo(1 / 3, 12);
    // first relevant at rank 1 -> 1 / 1
    expect(mrrAtK(['d1', 'd2'], relevant, 1)).toBe(1);
  });

  it('is 0 when the first relevant document is beyond the cutoff', () => {
    // first relevant at rank 3 > k = 2
    expect(mrrAtK(['d0', 'x', 'd2'], relevant, 2)).toBe(0);
  });

  it('uses ranks of the deduplicated ranking', () => {
    // x, x, d1 -> x, d1: d1 at rank 2 -> 1 / 2
    expect(mrrAtK(['x', 'x', 'd1'], relevant, 10)).toBe(0.5);
  });
});
