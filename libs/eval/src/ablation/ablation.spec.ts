import type { AblationFigures, AblationRow } from '@lumina/shared';
import { DEFAULT_SETTINGS } from '@lumina/shared';
import type { SearchResult } from '@lumina/rag';
import {
  ablationCombinations,
  ablationFigures,
  ablationLabel,
  bestAblationRow,
  enhancementsWorseThanOff,
  searchLlmCalls,
} from './ablation';

const figures = (overrides: Partial<AblationFigures>): AblationFigures => ({
  'ndcg@10': 0.5,
  'mrr@10': 0.5,
  support: null,
  inScopeRefused: null,
  outOfScopeAnswered: null,
  latencyP50Ms: 10,
  llmCalls: 0,
  ...overrides,
});

const row = (name: string, status: AblationRow['status'], f: AblationFigures | null) => ({
  name,
  status,
  figures: f,
});

describe('ablationCombinations', () => {
  it('crosses three rankers with expansion, HyDE and (when configured) rerank', () => {
    const all = ablationCombinations({ rerankAvailable: true });
    expect(all).toHaveLength(24);
    expect(new Set(all.map((c) => JSON.stringify(c))).size).toBe(24);
    expect(all[0]).toEqual({
      ranker: 'bm25',
      enableQueryExpansion: false,
      enableHyDE: false,
      enableRerank: false,
    });
    expect(all.filter((c) => c.enableRerank)).toHaveLength(12);
  });

  it('leaves rerank out when no reranker is configured', () => {
    const all = ablationCombinations({ rerankAvailable: false });
    expect(all).toHaveLength(12);
    expect(all.every((c) => !c.enableRerank)).toBe(true);
    expect(new Set(all.map((c) => c.ranker))).toEqual(new Set(['bm25', 'dense', 'hybrid']));
  });
});

describe('ablationLabel', () => {
  it('names what is switched on, and labels offline generation as PRF', () => {
    const on = {
      ranker: 'hybrid',
      enableQueryExpansion: true,
      enableHyDE: true,
      enableRerank: true,
    } as const;
    expect(ablationLabel(on, 'llm')).toBe('hybrid · expansion · HyDE · rerank');
    expect(ablationLabel(on, 'prf')).toBe('hybrid · expansion (PRF) · HyDE (PRF) · rerank');
    expect(
      ablationLabel(
        { ranker: 'bm25', enableQueryExpansion: false, enableHyDE: false, enableRerank: false },
        'prf',
      ),
    ).toBe('bm25 only');
  });
});

describe('bestAblationRow', () => {
  it('picks the highest nDCG@10', () => {
    const rows = [
      row('a', 'completed', figures({ 'ndcg@10': 0.4 })),
      row('b', 'completed', figures({ 'ndcg@10': 0.7, llmCalls: 30 })),
      row('c', 'completed', figures({ 'ndcg@10': 0.6 })),
    ];
    expect(bestAblationRow(rows)?.name).toBe('b');
  });

  it('breaks a tie by fewer LLM calls, then by lower latency', () => {
    const rows = [
      row('slow-many', 'completed', figures({ llmCalls: 20, latencyP50Ms: 5 })),
      row('slow-few', 'completed', figures({ llmCalls: 0, latencyP50Ms: 40 })),
      row('fast-few', 'completed', figures({ llmCalls: 0, latencyP50Ms: 12 })),
    ];
    expect(bestAblationRow(rows)?.name).toBe('fast-few');
    // A difference of floating-point noise in nDCG@10 is a tie.
    const noisy = [
      row('x', 'completed', figures({ 'ndcg@10': 0.6 + 1e-12, llmCalls: 10 })),
      row('y', 'completed', figures({ 'ndcg@10': 0.6, llmCalls: 0 })),
    ];
    expect(bestAblationRow(noisy)?.name).toBe('y');
  });

  it('keeps the first listed on a full tie, and ignores rows that did not complete', () => {
    const rows = [
      row('failed', 'failed', null),
      row('running', 'running', figures({ 'ndcg@10': 0.99 })),
      row('first', 'completed', figures({})),
      row('second', 'completed', figures({})),
    ];
    expect(bestAblationRow(rows)?.name).toBe('first');
    expect(bestAblationRow([row('q', 'queued', null)])).toBeNull();
  });
});

describe('ablationFigures', () => {
  const rate = (items: number, count: number) => ({
    items,
    count,
    rate: items ? count / items : 0,
    low: 0,
    high: 1,
  });

  it('reads nDCG@10, MRR, the answer figures, the median latency and the LLM calls', () => {
    const f = ablationFigures({
      metrics: { 'ndcg@10': 0.61, 'mrr@10': 0.55 },
      answers: {
        inScopeRefused: rate(10, 1),
        outOfScopeAnswered: rate(2, 1),
        auc: 0.8,
        support: rate(9, 6),
        modelVersion: null,
        generator: 'extractive',
      },
      refusal: null,
      timings: { queryP50Ms: 12.5, queryP95Ms: 30 },
      llmCalls: 24,
    });
    expect(f).toEqual({
      'ndcg@10': 0.61,
      'mrr@10': 0.55,
      support: 6 / 9,
      inScopeRefused: 0.1,
      outOfScopeAnswered: 0.5,
      latencyP50Ms: 12.5,
      llmCalls: 24,
    });
  });

  it('says null for a figure with no items, and for a run without metrics', () => {
    const f = ablationFigures({
      metrics: { 'ndcg@10': 0.2 },
      answers: null,
      refusal: {
        inScope: { items: 4, refused: 1, rate: 0.25, low: 0, high: 1 },
        outOfScope: { items: 0, refused: 0, rate: 0, low: 0, high: 1 },
      },
      timings: null,
      llmCalls: null,
    });
    expect(f).toMatchObject({ support: null, inScopeRefused: 0.25, outOfScopeAnswered: null, llmCalls: 0 });
    expect(
      ablationFigures({ metrics: null, answers: null, refusal: null, timings: null, llmCalls: 3 }),
    ).toBeNull();
  });
});

describe('searchLlmCalls', () => {
  const result = (
    perBranch: Record<string, number>,
    enableRerank: boolean,
    { reranked = false, warnings = [] as string[], hits = 1 } = {},
  ) =>
    ({
      settings: { ...DEFAULT_SETTINGS, enableRerank },
      results: Array.from({ length: hits }, () => (reranked ? { rerank: { model: 'm' } } : {})),
      warnings,
      timings: { total: 1, perBranch, llm: 0, fuse: 0, rerank: 1, answerability: 0 },
    }) as unknown as SearchResult;

  it('counts the LLM generations attempted and a model reranking', () => {
    expect(searchLlmCalls(result({ original: 3 }, false), true)).toBe(0);
    expect(searchLlmCalls(result({ original: 3, 'llm:expansion': 40, 'llm:hyde': 30 }, false), true)).toBe(2);
    expect(searchLlmCalls(result({ original: 3, 'llm:hyde': 30 }, true, { reranked: true }), true)).toBe(2);
    const failed = result({ original: 3 }, true, {
      warnings: ['Reranking failed, the fused order is kept: x'],
    });
    expect(searchLlmCalls(failed, true)).toBe(1);
  });

  it('counts no call when nothing was reranked, or for the learned reranker', () => {
    // Nothing found: the listwise reranker returns without calling the model.
    expect(searchLlmCalls(result({ original: 3 }, true, { hits: 0 }), true)).toBe(0);
    expect(searchLlmCalls(result({ original: 3 }, true, { reranked: true }), false)).toBe(0);
  });
});

describe('enhancementsWorseThanOff', () => {
  const combo = (
    runId: string,
    ranker: AblationRow['switches']['ranker'],
    on: Partial<Omit<AblationRow['switches'], 'ranker'>>,
    ndcg: number | null,
  ) => ({
    runId,
    switches: { ranker, enableQueryExpansion: false, enableHyDE: false, enableRerank: false, ...on },
    status: (ndcg === null ? 'failed' : 'completed') as AblationRow['status'],
    figures: ndcg === null ? null : figures({ 'ndcg@10': ndcg }),
  });

  it('names each enhancement that alone scored under its ranker alone, with both figures', () => {
    const rows = [
      combo('b', 'bm25', {}, 0.813),
      combo('b-hyde', 'bm25', { enableHyDE: true }, 0.658),
      combo('b-exp', 'bm25', { enableQueryExpansion: true }, 0.727),
      combo('b-both', 'bm25', { enableQueryExpansion: true, enableHyDE: true }, 0.6),
      combo('d', 'dense', {}, 0.329),
      combo('d-exp', 'dense', { enableQueryExpansion: true }, 0.4),
      combo('d-hyde', 'dense', { enableHyDE: true }, null),
      combo('h-exp', 'hybrid', { enableQueryExpansion: true }, 0.1),
    ];
    expect(enhancementsWorseThanOff(rows)).toEqual([
      { enhancement: 'hyde', ranker: 'bm25', off: 0.813, offRunId: 'b', on: 0.658, onRunId: 'b-hyde' },
      { enhancement: 'expansion', ranker: 'bm25', off: 0.813, offRunId: 'b', on: 0.727, onRunId: 'b-exp' },
    ]);
    // Equal (within noise) is not worse.
    expect(
      enhancementsWorseThanOff([
        combo('b', 'bm25', {}, 0.5),
        combo('r', 'bm25', { enableRerank: true }, 0.5),
      ]),
    ).toEqual([]);
  });
});
