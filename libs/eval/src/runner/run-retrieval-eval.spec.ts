import { compareReports } from './compare-reports';
import { formatReport } from './format-report';
import { runRetrievalEval } from './run-retrieval-eval';

const qrels = new Map([
  ['q1', new Map([['d1', 1]])],
  ['q2', new Map([['d2', 1]])],
]);
const queries = [
  { id: 'q1', text: 'first' },
  { id: 'q2', text: 'second' },
];

describe('runRetrievalEval', () => {
  it('scores each query through the search function and attaches intervals', async () => {
    const rankings: Record<string, string[]> = { q1: ['d1', 'd9'], q2: ['d9', 'd2'] };
    const report = await runRetrievalEval({
      dataset: 'tiny',
      split: 'test',
      ranker: 'bm25',
      settings: {},
      queries,
      qrels,
      concurrency: 2,
      search: async (query) => rankings[query.id],
    });
    // q1: relevant at rank 1 → ndcg 1, mrr 1, hit@1 1. q2: relevant at rank 2 → ndcg 1/log2(3) = 0.6309, mrr 0.5.
    expect(report.metrics['ndcg@10']).toBeCloseTo((1 + 1 / Math.log2(3)) / 2, 10);
    expect(report.metrics['mrr@10']).toBeCloseTo(0.75, 10);
    expect(report.metrics['hit@1']).toBe(0.5);
    expect(report.metrics['hit@5']).toBe(1);
    expect(report.metrics['recall@100']).toBe(1);
    expect(report.intervals['hit@1'].method).toBe('wilson');
    expect(report.intervals['ndcg@10'].method).toBe('bootstrap');
    expect(report.intervals['hit@1'].low).toBeLessThan(0.5);
    expect(report.perQuery.map((q) => q.firstRelevantRank)).toEqual([1, 2]);
    expect(formatReport(report)).toMatch(/ndcg@10\s+0\.815/);
  });

  it('compares two runs pairwise and counts which queries flipped', async () => {
    const base = { dataset: 'tiny', split: 'test', ranker: 'bm25', settings: {}, queries, qrels };
    const a = await runRetrievalEval({
      ...base,
      search: async (q) => (q.id === 'q1' ? ['d1'] : ['d9', 'd2']),
    });
    const b = await runRetrievalEval({
      ...base,
      search: async (q) => (q.id === 'q1' ? ['d9', 'd1'] : ['d2']),
    });
    const comparison = compareReports(a, b);
    const hit1 = comparison.comparisons.find((c) => c.metric === 'hit@1')!;
    // q1 flips from a hit to a miss at rank 1, q2 the other way: one discordant pair each way → p = 1.
    expect(hit1.flips).toEqual({ onlyA: 1, onlyB: 1 });
    expect(hit1.pValue).toBe(1);
    expect(hit1.difference).toBe(0);
    expect(comparison.queries).toBe(2);
  });
});
