import { gateRankers, gateVerdict, updatedGateBaseline } from './retrieval-gate';
import type { GateBaseline } from './retrieval-gate';

const BASELINE: GateBaseline = {
  dataset: 'scifact',
  subset: { queries: 100, distractors: 400, seed: 1 },
  chunking: { unit: 'chunk', maxChars: 1200, overlapChars: 200 },
  tolerance: 0.005,
  ndcgAt10: { hybrid: 0.7, bm25: 0.6 },
};

describe('retrieval gate', () => {
  it('holds the rankers the baseline names, BM25 first', () => {
    expect(gateRankers(BASELINE)).toEqual(['bm25', 'hybrid']);
    expect(gateRankers({ ...BASELINE, ndcgAt10: { bm25: 0.6 } })).toEqual(['bm25']);
  });

  it('passes at the floor and reports a regression below it', () => {
    const held = gateVerdict(
      'scifact',
      BASELINE,
      new Map([
        ['bm25', 0.595],
        ['hybrid', 0.71],
      ]),
    );
    expect(held.passed).toBe(true);
    expect(held.lines).toEqual([
      'gate scifact\nranker     measured  baseline  floor     verdict',
      'bm25       0.5950    0.6000    0.5950    ok',
      'hybrid     0.7100    0.7000    0.6950    ok',
    ]);
    const fell = gateVerdict(
      'scifact',
      BASELINE,
      new Map([
        ['bm25', 0.5949],
        ['hybrid', 0.71],
      ]),
    );
    expect(fell.passed).toBe(false);
    expect(fell.lines[1]).toMatch(/REGRESSION$/);
  });

  it('rewrites the baseline with the measurements to four decimals', () => {
    const updated = updatedGateBaseline(
      BASELINE,
      new Map([
        ['bm25', 0.612345],
        ['hybrid', 0.70006],
      ]),
    );
    expect(updated.ndcgAt10).toEqual({ bm25: 0.6123, hybrid: 0.7001 });
    expect(updated.subset).toBe(BASELINE.subset);
  });
});
