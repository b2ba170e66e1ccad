import { LTR_FEATURES } from './ltr-features';
import { DEFAULT_LTR_FIT, fitLtrModel } from './fit-ltr';
import type { RankingSample } from './fit-ltr';
import { LearnedReranker } from './learned-reranker';
import { parseLtrModel, scoreLtr } from './ltr-model';

/** A seeded source of noise, so the synthetic bank is the same on every run. */
function noise(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/**
 * A bank where `spanDensity` alone decides relevance: every feature is noise, but the relevant
 * candidate of each query has the highest span density.
 */
function syntheticBank(queries: number, seed = 7): RankingSample[] {
  const random = noise(seed);
  const decisive = LTR_FEATURES.indexOf('spanDensity');
  return Array.from({ length: queries }, (_, q) => {
    const rows = Array.from({ length: 10 }, () => LTR_FEATURES.map(() => random() * 10));
    const relevance = rows.map(() => 0);
    const best = rows.reduce((top, row, i) => (row[decisive] > rows[top][decisive] ? i : top), 0);
    relevance[best] = 1;
    // A clear margin on the decisive feature, so that no near tie is left for the noise to break.
    rows[best][decisive] += 1;
    return { queryId: `q${q}`, rows, relevance };
  });
}

// A light penalty: the bank is small and synthetic, and the test is about what the fit recovers.
const options = {
  ...DEFAULT_LTR_FIT,
  l2: 1e-3,
  version: 'synthetic-v1',
  source: 'synthetic',
  candidateDepth: 10,
};

describe('fitting the learned reranker', () => {
  const bank = syntheticBank(60);
  const model = fitLtrModel(bank, options);

  it('recovers the one feature that decides relevance: its weight dominates', () => {
    const decisive = model.features.indexOf('spanDensity');
    const others = model.weights.filter((_, i) => i !== decisive).map(Math.abs);
    expect(model.weights[decisive]).toBeGreaterThan(0);
    expect(model.weights[decisive]).toBeGreaterThan(5 * Math.max(...others));
    expect(model.training.converged).toBe(true);
    expect(model.training.loss.final).toBeLessThan(model.training.loss.initial);
  });

  it('ranks held-out queries of the same bank by that feature (near ties aside)', () => {
    const reranked = syntheticBank(20, 99).map((sample) => {
      const scores = sample.rows.map((row) => scoreLtr(model, row).score);
      return scores.indexOf(Math.max(...scores)) === sample.relevance.indexOf(1);
    });
    // Noise weights are small but not zero: with two dozen noise features one query may still flip.
    expect(reranked.filter(Boolean).length).toBeGreaterThanOrEqual(19);
  });

  it('is exactly reproducible, and the seed only matters when pairs are sampled', () => {
    expect(fitLtrModel(bank, options)).toEqual(model);
    const sampled = { ...options, maxPairsPerQuery: 4 };
    expect(fitLtrModel(bank, { ...sampled, seed: 3 })).toEqual(fitLtrModel(bank, { ...sampled, seed: 3 }));
    expect(fitLtrModel(bank, { ...sampled, seed: 3 }).weights).not.toEqual(
      fitLtrModel(bank, { ...sampled, seed: 4 }).weights,
    );
  });

  it('standardises each feature and records the provenance', () => {
    const column = LTR_FEATURES.indexOf('bm25');
    const values = bank.flatMap((s) => s.rows.map((row) => row[column]));
    const mean = values.reduce((a, v) => a + v, 0) / values.length;
    expect(model.mean[model.features.indexOf('bm25')]).toBeCloseTo(mean, 6);
    expect(model.training).toMatchObject({
      source: 'synthetic',
      queries: 60,
      pairs: 540,
      seed: 1,
      candidateDepth: 10,
    });
  });

  it('gives a feature that never varies no weight, and fits a chosen subset of features', () => {
    const constant = bank.map((s) => ({
      ...s,
      rows: s.rows.map((row) => row.map((v, i) => (i === 0 ? 4 : v))),
    }));
    const fitted = fitLtrModel(constant, options);
    expect(fitted.scale[0]).toBe(1);
    expect(fitted.weights[0]).toBe(0);
    const subset = fitLtrModel(bank, { ...options, features: ['bm25', 'spanDensity'] });
    expect(subset.features).toEqual(['bm25', 'spanDensity']);
    expect(subset.weights[1]).toBeGreaterThan(5 * Math.abs(subset.weights[0]));
  });

  it('refuses a bank where no query has a relevant and an irrelevant candidate', () => {
    const flat = bank.map((s) => ({ ...s, relevance: s.relevance.map(() => 0) }));
    expect(() => fitLtrModel(flat, options)).toThrow(/no query/);
  });

  it('survives a JSON round trip and names its version as the reranker id', () => {
    const parsed = parseLtrModel(JSON.parse(JSON.stringify(model)));
    expect(parsed).toEqual(model);
    expect(new LearnedReranker(parsed).modelId).toBe('ltr:synthetic-v1');
    expect(() => parseLtrModel({ ...model, features: ['nope'] })).toThrow(/unknown features: nope/);
    expect(() => parseLtrModel({ ...model, weights: [1] })).toThrow(/weights must hold/);
    expect(() => parseLtrModel({ ...model, format: 'other' })).toThrow(/format/);
  });
});
