import { LTR_FEATURES, LTR_MODEL_FORMAT } from '@lumina/rag';
import type { LtrModel } from '@lumina/rag';
import { refineForNdcg } from './coordinate-ascent';
import type { JudgedRankingSample } from './cross-validate-ltr';

/** Two features: 'bm25' is noise, 'windowCoverage' marks the one relevant candidate (its third). */
function bank(): JudgedRankingSample[] {
  return Array.from({ length: 20 }, (_, q) => {
    const rows = Array.from({ length: 5 }, (_, i) => {
      const row = new Array<number>(LTR_FEATURES.length).fill(0);
      row[LTR_FEATURES.indexOf('bm25')] = ((q * 7 + i * 3) % 5) / 5; // noise
      row[LTR_FEATURES.indexOf('windowCoverage')] = i === 2 ? 1 : 0;
      return row;
    });
    const documents = rows.map((_, i) => `q${q}-d${i}`);
    return {
      queryId: `q${q}`,
      rows,
      documents,
      relevance: rows.map((_, i) => (i === 2 ? 1 : 0)),
      judged: { [`q${q}-d2`]: 1 },
    };
  });
}

/** A start that weighs only the noise. */
const START: LtrModel = {
  format: LTR_MODEL_FORMAT,
  version: 'start',
  features: ['bm25', 'windowCoverage'],
  mean: [0, 0],
  scale: [1, 1],
  weights: [1, 0],
  training: {
    source: 'synthetic',
    queries: 20,
    candidates: 100,
    pairs: 80,
    candidateDepth: 5,
    seed: 1,
    l2: 0,
    maxPairsPerQuery: 10,
    iterations: 1,
    converged: true,
    loss: { initial: 0.69, final: 0.6 },
  },
};

describe('coordinate ascent on nDCG@10', () => {
  it('moves the weights until the deciding feature ranks the relevant candidate first', () => {
    const refined = refineForNdcg(START, bank());
    expect(refined.before).toBeLessThan(1);
    expect(refined.after).toBe(1);
    // From no weight at all: enough that 1 on the deciding feature outweighs the noise (at most 0.8).
    expect(refined.model.weights[1]).toBeGreaterThan(0.8 * Math.abs(refined.model.weights[0]));
    expect(refined.model.training.coordinateAscent).toEqual(
      expect.objectContaining({ ndcgAfter: 1, ndcgBefore: Math.round(refined.before * 1e8) / 1e8 }),
    );
    expect(refineForNdcg(START, bank())).toEqual(refined);
  });
});
