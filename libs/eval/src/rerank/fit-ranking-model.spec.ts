import { DEFAULT_LAMBDAMART_FIT, LTR_FEATURES, isTreesModel } from '@lumina/rag';
import type { JudgedRankingSample } from './cross-validate-ltr';
import { crossValidateFit, defaultFitSpec, fitRankingModel, modelImportance } from './fit-ranking-model';

/** Queries whose relevant candidate sits at rank 6 of the search's order, marked by one feature. */
function bank(queries: number): JudgedRankingSample[] {
  const decisive = LTR_FEATURES.indexOf('orderedPairs');
  let state = 7;
  const random = () => (state = (state * 16807) % 2147483647) / 2147483647;
  return Array.from({ length: queries }, (_, q) => {
    const rows = Array.from({ length: 10 }, (_, i) =>
      LTR_FEATURES.map((_, f) => (f === decisive ? (i === 5 ? 0.8 : 0.2) + random() * 0.1 : random())),
    );
    return {
      queryId: `q${q}`,
      rows,
      documents: rows.map((_, i) => `q${q}-d${i}`),
      relevance: rows.map((_, i) => (i === 5 ? 1 : 0)),
      judged: { [`q${q}-d5`]: 1 },
    };
  });
}

const source = { version: 'spec-v1', source: 'synthetic', candidateDepth: 10 };

describe('fitting a learned reranker by spec', () => {
  it('fits LambdaMART trees by default, and a linear model when asked', () => {
    const samples = bank(40);
    const trees = fitRankingModel(samples, {
      learner: 'lambdamart',
      options: { ...DEFAULT_LAMBDAMART_FIT, ...source, trees: 10, minLeafRows: 10 },
    });
    expect(isTreesModel(trees)).toBe(true);
    expect(defaultFitSpec(source).learner).toBe('linear');
    const linear = fitRankingModel(samples, defaultFitSpec(source, 'linear'));
    expect(isTreesModel(linear)).toBe(false);
    expect(linear.training.objective).toBe('ranknet');
    // Either way the deciding feature leads the importance table.
    expect(modelImportance(trees)[0].feature).toBe('orderedPairs');
    expect(modelImportance(linear)[0].feature).toBe('orderedPairs');
  });

  it('cross-validates a spec: held-out folds move the relevant candidate up, reproducibly', () => {
    const spec = {
      learner: 'lambdamart' as const,
      options: { ...DEFAULT_LAMBDAMART_FIT, ...source, trees: 10, minLeafRows: 10 },
    };
    const cv = crossValidateFit(bank(50), spec, 5, 3);
    expect(cv.meanBefore).toBeCloseTo(1 / Math.log2(7), 10);
    expect(cv.meanAfter).toBeGreaterThan(0.95);
    expect(crossValidateFit(bank(50), spec, 5, 3)).toEqual(cv);
  });
});
