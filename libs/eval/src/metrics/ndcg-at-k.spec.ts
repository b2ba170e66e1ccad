import { ndcgAtK } from './ndcg-at-k';

// Grades: d4 = 3, d1 = 2, d2 = 1, d3 = 0 (judged not relevant). d4 is never retrieved below.
const relevant = new Map([
  ['d1', 2],
  ['d2', 1],
  ['d3', 0],
  ['d4', 3],
]);
const ranking = ['d3', 'd1', 'x', 'd2'];

describe('ndcgAtK', () => {
  it('uses linear gains, log2(rank + 1) discounts and an ideal DCG over all judged relevant documents', () => {
    // DCG@3  = 0/log2(2) + 2/log2(3) + 0/log2(4) = 2/1.5849625 = 1.2618595071
    // IDCG@3 = 3/log2(2) + 2/log2(3) + 1/log2(4) = 3 + 1.2618595071 + 0.5 = 4.7618595071
    // nDCG@3 = 1.2618595071 / 4.7618595071 = 0.2649930149
    expect(ndcgAtK(ranking, relevant, 3)).toBeCloseTo(0.2649930149, 9);
  });

  it('keeps the ideal at all relevant documents when k exceeds their number', () => {
    // DCG@4  = 1.2618595071 + 1/log2(5) = 1.2618595071 + 0.4306765581 = 1.6925360652
    // IDCG@4 = IDCG@3 = 4.7618595071 (only three positive grades)
    // nDCG@4 = 1.6925360652 / 4.7618595071 = 0.3554359516
    expect(ndcgAtK(ranking, relevant, 4)).toBeCloseTo(0.3554359516, 9);
    // k = 100 gives the same value: nothing else is retrieved or judged relevant
    expect(ndcgAtK(ranking, relevant, 100)).toBeCloseTo(0.3554359516, 9);
  });

  it('cuts the ideal ranking at k', () => {
    // ranking d1: DCG@1 = 2/log2(2) = 2; IDCG@1 = 3/log2(2) = 3; 2 / 3
    expect(ndcgAtK(['d1', 'd4'], relevant, 1)).toBeCloseTo(2 / 3, 12);
  });

  it('is 1 for the ideal ordering', () => {
    // d4, d1, d2 is exactly the ideal order: DCG = IDCG
    expect(ndcgAtK(['d4', 'd1', 'd2'], relevant, 10)).toBeCloseTo(1, 12);
  });

  it('is 0 when nothing relevant is retrieved or nothing is relevant', () => {
    expect(ndcgAtK(['d3', 'x'], relevant, 10)).toBe(0);
    expect(ndcgAtK(['d3'], new Map([['d3', 0]]), 10)).toBe(0);
  });

  it('gives negative grades no gain, as trec_eval does', () => {
    // grades: a = -1, b = 1. ranking a, b:
    // DCG@2 = 0 + 1/log2(3) = 0.6309297536; IDCG@2 = 1/log2(2) = 1 -> 0.6309297536
    const withNegative = new Map([
      ['a', -1],
      ['b', 1],
    ]);
    expect(ndcgAtK(['a', 'b'], withNegative, 2)).toBeCloseTo(0.6309297536, 9);
  });

  it('does not let a repeated document earn gain twice', () => {
    // d4, d4, d1 -> d4, d1: DCG@2 = 3 + 2/log2(3) = 4.2618595071 = IDCG@2 -> 1
    expect(ndcgAtK(['d4', 'd4', 'd1'], relevant, 2)).toBeCloseTo(1, 12);
  });
});
