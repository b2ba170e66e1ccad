import type { EvalItemResult } from '@lumina/shared';
import { compareEvalRuns } from './compare-eval-runs';
import type { ComparableRun } from './compare-eval-runs';

const item = (itemId: string, hit1: number, extra: Partial<EvalItemResult> = {}): EvalItemResult => ({
  itemId,
  question: `question ${itemId}`,
  inScope: true,
  level: 'document',
  retrievedChunkIds: [],
  ranking: [],
  firstRelevantRank: hit1 ? 1 : null,
  answerability: null,
  answer: null,
  supported: null,
  metrics: { 'ndcg@10': hit1, 'recall@100': hit1, 'mrr@10': hit1, 'hit@1': hit1, 'hit@5': hit1 },
  refused: false,
  skippedReason: null,
  warnings: [],
  ...extra,
});

const run = (id: string, perItem: EvalItemResult[], datasetHash = 'h'): ComparableRun => ({
  id,
  bankId: 'bank',
  datasetHash,
  metrics: {},
  perItem,
});

describe('compareEvalRuns', () => {
  it('pairs the items both runs scored, tests each metric and lists the flips', () => {
    const a = run('a', [item('1', 1), item('2', 1), item('3', 0), item('4', 1), item('gone', 1)]);
    const b = run('b', [item('1', 0), item('2', 1), item('3', 1), item('4', 0), item('new', 0)]);
    const comparison = compareEvalRuns(a, b);
    expect(comparison.pairedItems).toBe(4);
    const hit1 = comparison.comparisons.find((c) => c.metric === 'hit@1')!;
    expect(hit1).toMatchObject({ a: 0.75, b: 0.5, difference: -0.25, test: 'mcnemar-exact', pValue: 1 });
    expect(comparison.comparisons.find((c) => c.metric === 'ndcg@10')!.test).toBe('paired-randomization');
    expect(comparison.flips['hit@1'].onlyA.map((f) => f.itemId)).toEqual(['1', '4']);
    expect(comparison.flips['hit@1'].onlyB.map((f) => f.itemId)).toEqual(['3']);
    expect(comparison.warnings).toEqual([]);
  });

  it('lists refusal flips on out-of-scope items and warns when the bank changed', () => {
    const out = (itemId: string, refused: boolean) =>
      item(itemId, 0, { inScope: false, refused, skippedReason: 'out of scope', metrics: {} });
    const a = run('a', [item('1', 1), out('o1', true), out('o2', false)], 'h1');
    const b = run('b', [item('1', 1), out('o1', false), out('o2', true)], 'h2');
    const comparison = compareEvalRuns(a, b);
    expect(comparison.refusalFlips).toEqual({
      onlyA: [{ itemId: 'o1', question: 'question o1' }],
      onlyB: [{ itemId: 'o2', question: 'question o2' }],
    });
    expect(comparison.warnings).toEqual([
      'the bank changed between the runs; compared on the 1 items both scored',
    ]);
  });

  it('refuses runs with no scored item in common', () => {
    expect(() => compareEvalRuns(run('a', [item('1', 1)]), run('b', [item('2', 1)]))).toThrow(
      /no scored item/,
    );
  });
});
