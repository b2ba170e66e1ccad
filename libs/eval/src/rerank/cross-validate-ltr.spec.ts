import { DEFAULT_LTR_FIT, LTR_FEATURES } from '@lumina/rag';
import { candidateNdcg, crossValidateLtr, groupedFolds } from './cross-validate-ltr';
import type { JudgedRankingSample } from './cross-validate-ltr';

/** Queries whose relevant candidate sits at rank 5 of the search's order, marked by one feature. */
function bank(queries: number): JudgedRankingSample[] {
  const decisive = LTR_FEATURES.indexOf('windowCoverage');
  let state = 11;
  const random = () => (state = (state * 16807) % 2147483647) / 2147483647;
  return Array.from({ length: queries }, (_, q) => {
    const rows = Array.from({ length: 8 }, (_, i) =>
      LTR_FEATURES.map((_, f) => (f === decisive ? (i === 4 ? 0.9 : 0.3) + random() * 0.1 : random())),
    );
    const documents = rows.map((_, i) => `q${q}-d${i}`);
    return {
      queryId: `q${q}`,
      rows,
      documents,
      relevance: rows.map((_, i) => (i === 4 ? 1 : 0)),
      judged: { [`q${q}-d4`]: 1, [`q${q}-unretrieved`]: 0 },
    };
  });
}

describe('cross-validating the learned reranker', () => {
  const options = { ...DEFAULT_LTR_FIT, version: 'cv', source: 'synthetic', candidateDepth: 8 };

  it('scores candidates by document, with the judgments as the ideal', () => {
    const [sample] = bank(1);
    expect(candidateNdcg(sample, [4, 0, 1])).toBe(1);
    expect(candidateNdcg(sample, [0, 1, 2, 3, 4])).toBeCloseTo(1 / Math.log2(6), 10);
  });

  it('measures each fold with a model fitted on the others, and finds the gain', () => {
    const cv = crossValidateLtr(bank(40), options, 4, 3);
    expect(cv.queries).toBe(40);
    expect(cv.meanBefore).toBeCloseTo(1 / Math.log2(6), 10);
    expect(cv.meanAfter).toBe(1);
    expect(cv.p).toBeLessThan(0.001);
    expect(crossValidateLtr(bank(40), options, 4, 3)).toEqual(cv);
  });

  it('refuses fewer than two folds or more folds than queries', () => {
    expect(() => crossValidateLtr(bank(3), options, 1)).toThrow(RangeError);
    expect(() => crossValidateLtr(bank(3), options, 4)).toThrow(RangeError);
  });
});

describe('folds that keep queries about the same document together', () => {
  const sample = (queryId: string, judged: Record<string, number>): JudgedRankingSample => ({
    queryId,
    rows: [],
    documents: [],
    relevance: [],
    judged,
  });

  it('puts queries joined by a shared relevant document (transitively) in one fold, and balances folds', () => {
    const samples = [
      sample('a', { d1: 1 }),
      sample('b', { d1: 1, d2: 1 }),
      sample('c', { d2: 1 }),
      sample('d', { d3: 1, d1: 0 }), // d1 judged not relevant: no tie to a
      sample('e', { d4: 1 }),
      sample('f', { d5: 1 }),
    ];
    const folds = groupedFolds(samples, 3, 1);
    expect(new Set([folds[0], folds[1], folds[2]]).size).toBe(1);
    const sizes = [0, 1, 2].map((f) => folds.filter((x) => x === f).length);
    expect(sizes.sort()).toEqual([1, 2, 3]);
    expect(groupedFolds(samples, 3, 1)).toEqual(folds);
  });
});
