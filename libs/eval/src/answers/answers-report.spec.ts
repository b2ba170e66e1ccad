import {
  IncomparableReportsError,
  assertComparable,
  compareAnswersReports,
  formatAnswersComparison,
  formatAnswersReport,
  itemOutcomes,
  summariseAnswers,
} from './answers-report';
import type { AnswerItemResult, AnswersReport } from './answers-report';

const item = (overrides: Partial<AnswerItemResult>): AnswerItemResult => ({
  id: 'q',
  question: 'q?',
  inScope: true,
  status: 'complete',
  answer: 'a [1]',
  notFound: false,
  generator: 'llm',
  citations: [{ marker: 1, chunkId: 'c1', documentId: 'd1' }],
  droppedMarkers: [],
  uncited: false,
  citesRelevantDocument: true,
  judge: { faithful: true, citationsValid: true, unsupportedClaims: [], reason: '' },
  judgeError: null,
  error: null,
  timings: { answerMs: 1, judgeMs: 1 },
  ...overrides,
});

const report = (
  items: AnswerItemResult[],
  judge = { model: 'judge', promptVersion: 'judge-v1' },
): AnswersReport => ({
  suite: 'answers',
  dataset: 'tiny',
  split: 'test',
  generator: 'llm',
  answerModel: 'm',
  answerPromptVersion: 'answer-v1',
  judge,
  settings: {},
  questions: {
    inScope: items.filter((i) => i.inScope).length,
    outOfScope: items.filter((i) => !i.inScope).length,
  },
  metrics: summariseAnswers(items),
  counts: { failed: 0, judgeErrors: 0, withDroppedMarkers: 0, uncited: 0 },
  timings: {},
  perQuestion: items,
});

describe('answers report', () => {
  it('scores an answered in-scope item on every metric', () => {
    expect(itemOutcomes(item({}))).toEqual({
      faithfulness: true,
      citationValidity: true,
      inScopeAnswered: true,
      outOfScopeRefused: null,
      refusalCorrectness: true,
      citesRelevantDocument: true,
    });
  });

  it('counts a dropped marker or a missing citation as invalid citations, whatever the judge says', () => {
    expect(itemOutcomes(item({ droppedMarkers: [9] })).citationValidity).toBe(false);
    expect(itemOutcomes(item({ citations: [], uncited: true })).citationValidity).toBe(false);
  });

  it('scores refusals on refusal correctness only; a failed answer is neither', () => {
    expect(itemOutcomes(item({ inScope: false, notFound: true, judge: null }))).toEqual({
      faithfulness: null,
      citationValidity: null,
      inScopeAnswered: null,
      outOfScopeRefused: true,
      refusalCorrectness: true,
      citesRelevantDocument: null,
    });
    expect(itemOutcomes(item({ notFound: true, judge: null })).inScopeAnswered).toBe(false);
    const failed = itemOutcomes(item({ status: 'failed', inScope: false, judge: null }));
    expect([failed.outOfScopeRefused, failed.faithfulness]).toEqual([false, null]);
  });

  it('summarises rates with Wilson intervals over the items each metric applies to', () => {
    const metrics = summariseAnswers([
      item({ id: 'a' }),
      item({
        id: 'b',
        judge: { faithful: false, citationsValid: true, unsupportedClaims: ['x'], reason: '' },
      }),
      item({ id: 'c', inScope: false, notFound: true, judge: null }),
      item({ id: 'd', judge: null, judgeError: 'unreadable' }),
    ]);
    expect(metrics.faithfulness).toEqual({
      successes: 1,
      n: 2,
      rate: 0.5,
      low: expect.any(Number),
      high: expect.any(Number),
    });
    expect(metrics.faithfulness.low).toBeCloseTo(0.0945, 3);
    expect(metrics.faithfulness.high).toBeCloseTo(0.9055, 3);
    expect(metrics.outOfScopeRefused).toEqual({
      successes: 1,
      n: 1,
      rate: 1,
      low: expect.any(Number),
      high: 1,
    });
    expect(metrics.refusalCorrectness.n).toBe(4);
  });

  it('refuses to compare runs graded by another judge model or judge prompt', () => {
    const a = report([item({})]);
    expect(() =>
      assertComparable(a, report([item({})], { model: 'other', promptVersion: 'judge-v1' })),
    ).toThrow(IncomparableReportsError);
    expect(() =>
      compareAnswersReports(a, report([item({})], { model: 'judge', promptVersion: 'judge-v2' })),
    ).toThrow(/refusing to compare.*judge-v1 vs judge with judge-v2/);
  });

  it('compares paired questions with exact McNemar per metric', () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const a = report(ids.map((id) => item({ id })));
    const b = report(
      ids.map((id, i) =>
        item({ id, judge: { faithful: i >= 5, citationsValid: true, unsupportedClaims: [], reason: '' } }),
      ),
    );
    const comparison = compareAnswersReports(a, b);
    expect(comparison.pairedQuestions).toBe(6);
    const faithfulness = comparison.comparisons.find((c) => c.metric === 'faithfulness')!;
    expect(faithfulness).toEqual(
      expect.objectContaining({ pairs: 6, a: 1, onlyA: 5, onlyB: 0, pValue: 0.0625 }),
    );
    expect(faithfulness.b).toBeCloseTo(1 / 6);
    expect(formatAnswersComparison(comparison, 'A', 'B')).toMatch(/faithfulness\s+1\.000\s+0\.167\s+-0\.833/);
    expect(formatAnswersReport(a)).toMatch(/faithfulness\s+1\.000\s+6\s+\[0\.610, 1\.000\]/);
  });
});
