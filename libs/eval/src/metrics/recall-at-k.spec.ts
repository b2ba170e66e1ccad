import { recallAtK } from './recall-at-k';

// 3 relevant documents (d1, d2, d3); d4 judged not relevant
const relevant = new Map([
  ['d1', 2],
  ['d2', 1],
  ['d3', 1],
  ['d4', 0],
]);

describe('recallAtK', () => {
  it('divides the relevant documents found in the top k by all relevant documents', () => {
    // top 3 = d4, d1, x -> found {d1} = 1; 1 / 3
    expect(recallAtK(['d4', 'd1', 'x', 'd3'], relevant, 3)).toBeCloseTo(1 / 3, 12);
    // top 4 adds d3 -> found {d1, d3} = 2; 2 / 3
    expect(recallAtK(['d4', 'd1', 'x', 'd3'], relevant, 4)).toBeCloseTo(2 / 3, 12);
  });

  it('is 1 when every relevant document is retrieved', () => {
    // top 5 holds d3, d2, d1 -> 3 / 3
    expect(recallAtK(['d3', 'x', 'd2', 'y', 'd1'], relevant, 5)).toBe(1);
  });

  it('counts a repeated relevant document once', () => {
    // d1, d1, d1 deduplicates to d1 -> 1 / 3 (not 3 / 3)
    expect(recallAtK(['d1', 'd1', 'd1'], relevant, 3)).toBeCloseTo(1 / 3, 12);
  });

  it('is 0 when the query has no relevant documents', () => {
    expect(recallAtK(['d4'], new Map([['d4', 0]]), 10)).toBe(0);
    expect(recallAtK(['d4'], new Map(), 10)).toBe(0);
  });
});
