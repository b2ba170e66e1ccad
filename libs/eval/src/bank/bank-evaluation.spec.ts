import { searchHit, searchResult } from '@lumina/rag/testing';
import type { SearchHit, SearchResult } from '@lumina/rag';
import { resolveSettings } from '@lumina/shared';
import { REPORT_METRICS } from '../runner/retrieval-report';
import { runRetrievalEval } from '../runner/run-retrieval-eval';
import { datasetHash, evaluateBankItems, itemJudgments, relevanceLevel } from './bank-evaluation';
import type { EvaluableItem } from './bank-evaluation';

const hit = (chunkId: string, documentId: string): SearchHit => searchHit({ chunkId, documentId });

const result = (hits: SearchHit[], belowThreshold = false): SearchResult =>
  searchResult(hits, { belowThreshold });

/** A fake search: fixed hits per question. */
const RESULTS: Record<string, SearchResult> = {
  'doc question': result([hit('c1', 'A'), hit('c2', 'A'), hit('c3', 'B')]),
  'chunk question': result([hit('c1', 'A'), hit('c2', 'A'), hit('c3', 'B')]),
  'missed question': result([hit('c9', 'Z')]),
  'off topic answered': result([hit('c1', 'A')]),
  'off topic refused': result([], false),
  'off topic below threshold': result([], true),
};

const ITEMS: EvaluableItem[] = [
  { id: 'i1', question: 'doc question', inScope: true, expectedSources: [{ documentId: 'B', grade: 2 }] },
  {
    id: 'i2',
    question: 'chunk question',
    inScope: true,
    expectedSources: [{ documentId: 'A', chunkId: 'c2' }],
  },
  { id: 'i3', question: 'missed question', inScope: true, expectedSources: [{ documentId: 'A' }] },
  { id: 'i4', question: 'off topic answered', inScope: false, expectedSources: [] },
  { id: 'i5', question: 'off topic refused', inScope: false, expectedSources: [] },
  { id: 'i6', question: 'off topic below threshold', inScope: false, expectedSources: [] },
];

describe('evaluateBankItems', () => {
  it('adds up the model calls of every search, and counts none without a counter', async () => {
    const counted = await evaluateBankItems({
      bankId: 'bank',
      items: ITEMS,
      settings: resolveSettings(),
      search: async (question) => RESULTS[question],
      llmCalls: (searched) => (searched.results.length > 0 ? 2 : 0),
    });
    // Four of the six searches found something: 2 calls each.
    expect(counted.llmCalls).toBe(8);
    const uncounted = await evaluateBankItems({
      bankId: 'bank',
      items: ITEMS,
      settings: resolveSettings(),
      search: async (question) => RESULTS[question],
    });
    expect(uncounted.llmCalls).toBe(0);
  });

  const run = () =>
    evaluateBankItems({
      bankId: 'bank',
      items: ITEMS,
      settings: resolveSettings({ topK: 2 }),
      search: async (question) => RESULTS[question],
      missingIds: new Set(['c2']),
    });

  it('judges documents or chunks as the sources name them, and ranks documents by their best chunk', async () => {
    const evaluation = await run();
    const [doc, chunk, missed] = evaluation.perItem;
    expect(doc).toMatchObject({ level: 'document', ranking: ['A', 'B'], firstRelevantRank: 2 });
    expect(chunk).toMatchObject({ level: 'chunk', ranking: ['c1', 'c2', 'c3'], firstRelevantRank: 2 });
    expect(missed).toMatchObject({ level: 'document', firstRelevantRank: null, refused: false });
    expect(chunk.warnings).toEqual([
      "expected source c2 is no longer in the bank's collection (deleted, re-indexed or moved out)",
    ]);
    expect(evaluation.scoredItems).toBe(3);
    expect(evaluation.metrics['hit@1']).toBe(0);
    expect(evaluation.metrics['mrr@10']).toBeCloseTo((0.5 + 0.5 + 0) / 3, 12);
    expect(evaluation.metrics['hit@2']).toBeCloseTo(2 / 3, 12);
  });

  it('scores exactly as runRetrievalEval does with the same rankings and judgments', async () => {
    const evaluation = await run();
    const direct = await runRetrievalEval({
      dataset: 'x',
      split: 'y',
      ranker: 'bm25',
      settings: {},
      queries: [
        { id: 'i1', text: '' },
        { id: 'i2', text: '' },
        { id: 'i3', text: '' },
      ],
      qrels: new Map([
        ['i1', new Map([['B', 2]])],
        ['i2', new Map([['c2', 1]])],
        ['i3', new Map([['A', 1]])],
      ]),
      search: async (query) => ({ i1: ['A', 'B'], i2: ['c1', 'c2', 'c3'], i3: ['Z'] })[query.id]!,
    });
    for (const metric of REPORT_METRICS) {
      expect(evaluation.metrics[metric]).toBe(direct.metrics[metric]);
      expect(evaluation.intervals[metric]).toEqual(direct.intervals[metric]);
    }
  });

  it('counts a search with no results or below the threshold as a refusal', async () => {
    const evaluation = await run();
    expect(evaluation.perItem.filter((i) => !i.inScope).map((i) => i.refused)).toEqual([false, true, true]);
    expect(evaluation.refusal.outOfScope).toMatchObject({ items: 3, refused: 2 });
    expect(evaluation.refusal.outOfScope.rate).toBeCloseTo(2 / 3, 12);
    expect(evaluation.refusal.inScope).toMatchObject({ items: 3, refused: 0, rate: 0 });
  });
});

describe('judgments and the dataset hash', () => {
  it('uses the best grade of repeated sources and counts chunk sources for their documents in mixed items', () => {
    expect(relevanceLevel([])).toBeNull();
    expect(relevanceLevel([{ documentId: 'A', chunkId: 'c1' }, { documentId: 'B' }])).toBe('document');
    expect([
      ...itemJudgments([
        { documentId: 'A', grade: 1 },
        { documentId: 'A', chunkId: 'c', grade: 3 },
      ]),
    ]).toEqual([['A', 3]]);
  });

  it('changes with the questions or the judgments, not with row ids', () => {
    const renamed = ITEMS.map((item, i) => ({ ...item, id: `other-${i}` }));
    expect(datasetHash(renamed)).toBe(datasetHash(ITEMS));
    expect(datasetHash([{ ...ITEMS[0], question: 'changed' }, ...ITEMS.slice(1)])).not.toBe(
      datasetHash(ITEMS),
    );
    expect(
      datasetHash([{ ...ITEMS[0], expectedSources: [{ documentId: 'B', grade: 1 }] }, ...ITEMS.slice(1)]),
    ).not.toBe(datasetHash(ITEMS));
  });

  it('keeps the hex that runs already store (sha256 of the canonical JSON, byte for byte)', () => {
    // Pinned before the hash moved into this lib: a stored run's datasetHash must still match its bank.
    expect(datasetHash(ITEMS)).toBe('e23638d7a62e00ac08457f63f52aa4b9cb43322acd78dba55a55976a05d9a02c');
    expect(
      datasetHash([
        {
          id: 'x',
          question: 'Qu’est-ce que «été» 日本語 😀 "quoted" \\ ?',
          inScope: true,
          expectedSources: [
            { documentId: 'Z', grade: 3 },
            { documentId: 'A', grade: 1 },
            { documentId: 'a' },
          ],
        },
      ]),
    ).toBe('4518d0618d2f8f8ccfdd628151544e20e5938a9881e67d3a4eea2e1eff47d0cd');
    expect(datasetHash([])).toBe('4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945');
  });
});
