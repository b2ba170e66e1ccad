import { evaluateRun } from './evaluate-run';
import type { MetricSpec, Qrels, QueryRun } from './types';

const qrels: Qrels = new Map([
  [
    'q1',
    new Map([
      ['d1', 1],
      ['d2', 2],
    ]),
  ],
  ['q2', new Map([['d3', 1]])],
  ['q3', new Map([['d4', 0]])], // judged, but nothing relevant -> skipped
  ['q4', new Map([['d5', 1]])], // missing from the run -> empty ranking
]);

const runs: QueryRun[] = [
  { queryId: 'q1', ranking: ['d2', 'x', 'd1', 'd2'] }, // deduplicated: d2, x, d1
  { queryId: 'q2', ranking: ['x', 'y', 'd3'] },
  { queryId: 'q3', ranking: ['d4'] },
  { queryId: 'q9', ranking: ['d1'] }, // not in qrels -> skipped
];

const spec: MetricSpec[] = [
  { name: 'hit', k: 1 },
  { name: 'recall', k: 2 },
  { name: 'mrr', k: 10 },
  { name: 'ndcg', k: 3 },
];

describe('evaluateRun', () => {
  const result = evaluateRun(runs, qrels, spec);

  it('scores each query with relevant judgments, in run order then qrels order', () => {
    // q1: hit@1 = 1 (d2 relevant at rank 1); recall@2 = |{d2}| / 2 = 0.5; mrr@10 = 1/1
    //     ndcg@3: DCG = 2/log2(2) + 0 + 1/log2(4) = 2.5; IDCG = 2 + 1/log2(3) = 2.6309297536
    //     -> 2.5 / 2.6309297536 = 0.9502344167
    // q2: d3 at rank 3: hit@1 = 0; recall@2 = 0; mrr@10 = 1/3; ndcg@3 = (1/log2(4)) / 1 = 0.5
    // q4: empty ranking -> all 0
    expect(result.perQuery.map((q) => q.queryId)).toEqual(['q1', 'q2', 'q4']);
    const [q1, q2, q4] = result.perQuery;
    expect(q1.metrics['hit@1']).toBe(1);
    expect(q1.metrics['recall@2']).toBe(0.5);
    expect(q1.metrics['mrr@10']).toBe(1);
    expect(q1.metrics['ndcg@3']).toBeCloseTo(0.9502344167, 9);
    expect(q2.metrics).toEqual({ 'hit@1': 0, 'recall@2': 0, 'mrr@10': 1 / 3, 'ndcg@3': 0.5 });
    expect(q4.metrics).toEqual({ 'hit@1': 0, 'recall@2': 0, 'mrr@10': 0, 'ndcg@3': 0 });
  });

  it('reports the first relevant rank over the whole deduplicated ranking and the relevant count', () => {
    // q1: d2 at rank 1, 2 relevant; q2: d3 at rank 3, 1 relevant; q4: nothing retrieved, 1 relevant
    expect(result.perQuery.map((q) => [q.firstRelevantRank, q.relevantCount])).toEqual([
      [1, 2],
      [3, 1],
      [null, 1],
    ]);
  });

  it('lists queries without relevant judgments as skipped and averages over the rest', () => {
    // three evaluated queries (q1, q2, q4)
    // hit@1 = (1 + 0 + 0) / 3; recall@2 = (0.5 + 0 + 0) / 3 = 1/6; mrr@10 = (1 + 1/3 + 0) / 3 = 4/9
    // ndcg@3 = (0.9502344167 + 0.5 + 0) / 3 = 0.4834114722
    expect(result.skipped).toEqual(['q3', 'q9']);
    expect(result.queries).toBe(3);
    expect(result.means['hit@1']).toBeCloseTo(1 / 3, 12);
    expect(result.means['recall@2']).toBeCloseTo(1 / 6, 12);
    expect(result.means['mrr@10']).toBeCloseTo(4 / 9, 12);
    expect(result.means['ndcg@3']).toBeCloseTo(0.4834114722, 9);
  });

  it('evaluates a repeated spec once', () => {
    // q2 alone: mrr@10 = 1/3
    const single = evaluateRun(
      [{ queryId: 'q2', ranking: ['x', 'y', 'd3'] }],
      new Map([['q2', qrels.get('q2')!]]),
      [
        { name: 'mrr', k: 10 },
        { name: 'mrr', k: 10 },
      ],
    );
    expect(single.means).toEqual({ 'mrr@10': 1 / 3 });
  });

  it('returns zero means when no query can be evaluated', () => {
    const empty = evaluateRun([{ queryId: 'q3', ranking: ['d4'] }], new Map([['q3', new Map([['d4', 0]])]]), [
      { name: 'ndcg', k: 10 },
    ]);
    expect(empty).toEqual({ perQuery: [], means: { 'ndcg@10': 0 }, queries: 0, skipped: ['q3'] });
  });

  it('rejects a run that repeats a query and invalid specs', () => {
    expect(() =>
      evaluateRun(
        [
          { queryId: 'q1', ranking: [] },
          { queryId: 'q1', ranking: [] },
        ],
        qrels,
        spec,
      ),
    ).toThrow('query "q1" more than once');
    expect(() => evaluateRun(runs, qrels, [{ name: 'ndcg', k: 0 }])).toThrow('positive integer');
    expect(() => evaluateRun(runs, qrels, [{ name: 'map' as 'ndcg', k: 10 }])).toThrow(
      'Unknown metric "map"',
    );
  });
});
