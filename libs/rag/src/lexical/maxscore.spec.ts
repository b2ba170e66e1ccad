import { BOUND_SLACK, everyTermQuery, maxScorePlan, missingOneTermBound, termUpperBound } from './maxscore';
import type { BoundedTerm } from './maxscore';

const K1 = 0.9;
const B = 0.4;

function contribution(weight: number, tf: number, length: number, avgLength: number): number {
  return (weight * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / avgLength));
}

describe('termUpperBound', () => {
  it('is at least every posting contribution, whatever the average length', () => {
    const postings = [
      { tf: 1, length: 5 },
      { tf: 3, length: 40 },
      { tf: 7, length: 300 },
      { tf: 2, length: 9 },
    ];
    const term: BoundedTerm = {
      term: 't',
      weight: 2.5,
      df: postings.length,
      maxTf: Math.max(...postings.map((p) => p.tf)),
      minLengthPerTf: Math.min(...postings.map((p) => p.length / p.tf)),
    };
    for (const avgLength of [1, 7.5, 40, 120, 5000]) {
      const bound = termUpperBound(term, K1, B, avgLength);
      const best = Math.max(...postings.map((p) => contribution(term.weight, p.tf, p.length, avgLength)));
      expect(bound).toBeGreaterThanOrEqual(best);
      // Tight when one posting has both the largest tf and the smallest length per tf.
      expect(bound).toBeLessThanOrEqual(
        contribution(term.weight, term.maxTf!, term.maxTf! * term.minLengthPerTf!, avgLength) *
          (1 + 2 * BOUND_SLACK),
      );
    }
  });

  it('is infinite without a stored bound', () => {
    expect(
      termUpperBound({ term: 't', weight: 1, df: 1, maxTf: null, minLengthPerTf: null }, K1, B, 10),
    ).toBe(Infinity);
  });
});

describe('maxScorePlan', () => {
  const term = (name: string, weight: number): BoundedTerm => ({
    term: name,
    weight,
    df: 1,
    maxTf: 1,
    minLengthPerTf: 1,
  });
  // With maxTf 1 and len/tf 1 at average length 1 the saturation is (k1 + 1) / (1 + k1) = 1.
  const terms = [term('rare', 8), term('common', 1), term('mid', 3)];

  it('makes the weakest terms non-essential while their bounds sum below the threshold', () => {
    const plan = maxScorePlan(terms, 4.5, K1, B, 1);
    expect(plan.nonEssential.map((t) => t.term)).toEqual(['common', 'mid']);
    expect(plan.essential.map((t) => t.term)).toEqual(['rare']);
    expect(plan.nonEssentialBound).toBeCloseTo(4, 6);
  });

  it('keeps a term essential when the bounds would reach the threshold exactly (a tie could enter)', () => {
    const plan = maxScorePlan(terms, 4, K1, B, 1);
    expect(plan.nonEssential.map((t) => t.term)).toEqual(['common']);
  });

  it('keeps every term essential with no threshold', () => {
    const plan = maxScorePlan(terms, 0, K1, B, 1);
    expect(plan.nonEssential).toEqual([]);
    expect(plan.essential).toHaveLength(3);
  });
});

describe('everyTermQuery', () => {
  it('quotes every lexeme and doubles its quotes and backslashes', () => {
    expect(everyTermQuery(['data', "o'reilly", 'c:\\temp', 'a&b|c'])).toBe(
      "'data' & 'o''reilly' & 'c:\\\\temp' & 'a&b|c'",
    );
  });
});

describe('missingOneTermBound', () => {
  it('sums every bound but the smallest', () => {
    const term = (name: string, weight: number) => ({
      term: name,
      weight,
      df: 10,
      maxTf: 1,
      minLengthPerTf: 10,
    });
    const terms = [term('a', 1), term('b', 2), term('c', 3)];
    const bounds = terms.map((t) => termUpperBound(t, 0.9, 0.4, 10));
    expect(missingOneTermBound(terms, 0.9, 0.4, 10)).toBeCloseTo(bounds[1] + bounds[2], 12);
  });

  it('is infinite when a term keeps no bound', () => {
    const terms = [
      { term: 'a', weight: 1, df: 1, maxTf: null, minLengthPerTf: null },
      { term: 'b', weight: 1, df: 1, maxTf: null, minLengthPerTf: null },
    ];
    expect(missingOneTermBound(terms, 0.9, 0.4, 10)).toBe(Infinity);
  });
});
