import type { EvalItemResult, EvalRunComparison, EvalRunSummary } from '@lumina/shared';
import { compareItems, flipMetric, metricNames, metricSeries } from './eval-charts';

function run(
  id: string,
  finishedAt: string,
  metrics: Record<string, number> | null,
  status: EvalRunSummary['status'] = 'completed',
): EvalRunSummary {
  return {
    id,
    bankId: 'b1',
    status,
    settings: {} as EvalRunSummary['settings'],
    embeddingModel: null,
    chatModel: null,
    datasetHash: null,
    itemCount: 2,
    metrics,
    error: null,
    createdAt: finishedAt,
    startedAt: finishedAt,
    finishedAt,
  };
}

function item(itemId: string, rank: number | null, skipped: string | null = null): EvalItemResult {
  return {
    itemId,
    question: `Question ${itemId}`,
    inScope: true,
    level: 'chunk',
    retrievedChunkIds: [],
    ranking: [],
    firstRelevantRank: rank,
    metrics: {},
    refused: false,
    answerability: null,
    answer: null,
    supported: null,
    skippedReason: skipped,
    warnings: [],
  };
}

describe('eval charts', () => {
  it('plots completed runs that report the metric, oldest first', () => {
    const points = metricSeries(
      [
        run('new', '2025-02-02T10:00:00Z', { 'ndcg@10': 0.7 }),
        run('old', '2025-01-01T10:00:00Z', { 'ndcg@10': 0.5 }),
        run('running', '2025-03-01T10:00:00Z', null, 'running'),
        run('other', '2025-01-15T10:00:00Z', { 'hit@1': 1 }),
      ],
      'ndcg@10',
    );
    expect(points.map((point) => [point.runId, point.value])).toEqual([
      ['old', 0.5],
      ['new', 0.7],
    ]);
    expect(points[0].label).toBe('01-01 10:00');
  });

  it('gives runs of the same minute, or the same second, labels of their own', () => {
    const points = metricSeries(
      [
        run('aaaaaa-1', '2025-01-01T10:00:05Z', { 'hit@1': 1 }),
        run('bbbbbb-2', '2025-01-01T10:00:41Z', { 'hit@1': 0 }),
        run('cccccc-3', '2025-01-01T10:00:41Z', { 'hit@1': 1 }),
        run('dddddd-4', '2025-01-01T10:01:00Z', { 'hit@1': 1 }),
      ],
      'hit@1',
    );
    expect(points.map((point) => point.label)).toEqual([
      '01-01 10:00:05',
      '01-01 10:00:41 · bbbbbb',
      '01-01 10:00:41 · cccccc',
      '01-01 10:01',
    ]);
  });

  it('orders metric names with the headline ones first', () => {
    expect(metricNames([run('a', 't', { 'recall@6': 1, 'hit@1': 1, 'ndcg@10': 1, 'mrr@10': 1 })])).toEqual([
      'ndcg@10',
      'mrr@10',
      'hit@1',
      'recall@6',
    ]);
  });

  it('pairs items scored in both runs and marks the flips', () => {
    const comparison = {
      flips: {
        'hit@5': { onlyA: [], onlyB: [] },
        'hit@1': { onlyA: [{ itemId: 'i2', question: '' }], onlyB: [{ itemId: 'i1', question: '' }] },
      },
    } as unknown as EvalRunComparison;
    const metric = flipMetric(comparison);
    const rows = compareItems(
      { perItem: [item('i1', 3), item('i2', 1), item('i3', null), item('i4', 1, 'no relevant source')] },
      { perItem: [item('i1', 1), item('i2', 4), item('i3', 2)] },
      comparison,
      metric,
    );
    expect(metric).toBe('hit@1');
    expect(rows.map((row) => [row.label, row.a, row.b, row.flip])).toEqual([
      ['Q1', 1 / 3, 1, 'onlyB'],
      ['Q2', 1, 0.25, 'onlyA'],
      ['Q3', 0, 0.5, null],
    ]);
  });
});
