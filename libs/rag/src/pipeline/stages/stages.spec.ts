import type { FusedItem } from '../../fusion/reciprocal-rank-fusion';
import type { Reranker } from '../../rerank/reranker.port';
import type { SearchPorts } from '../search-ports';
import { FakeChunkSearch, FakeEmbedder } from '../../testing/fake-search-ports';
import type { FakeChunkSearchOptions } from '../../testing/fake-search-ports';
import { assembleHits, topCosine } from './assemble';
import { runBranches } from './branches';
import { planSearch, searches } from './plan';
import { rerank } from './rerank';
import { applyThreshold } from './threshold';

function ports(search: FakeChunkSearchOptions = {}, extra: Partial<SearchPorts> = {}): SearchPorts {
  const embedder = new FakeEmbedder();
  return { chunks: new FakeChunkSearch(embedder, search), embedder, ...extra };
}

const fused = (...ids: string[]): FusedItem[] =>
  ids.map((id, i) => ({
    id,
    score: 1 / (61 + i),
    provenance: [{ list: 'original:bm25', rank: i + 1, score: 9 - i }],
  }));

const records = async (search: SearchPorts, ids: string[]) =>
  new Map((await search.chunks.fetch(ids)).map((r) => [r.chunkId, r]));

describe('the plan stage', () => {
  it('resolves the settings, the depth of every list and the document filter', () => {
    const run = planSearch(
      'q',
      { ranker: 'hybrid', topK: 4, candidateK: 20, documentIds: ['d1'] },
      ports(),
      { hybridDepth: 50 },
      undefined,
    );
    expect(run.depth).toBe(50);
    expect(run.filter).toEqual({ documentIds: ['d1'] });
    expect(run.needsQueryVector).toBe(true);
    expect(
      planSearch('q', { ranker: 'bm25', topK: 40, candidateK: 30 }, ports(), {}, undefined),
    ).toMatchObject({
      depth: 40,
      filter: {},
      needsQueryVector: false,
    });
  });

  it('lets only the original query search a list whose fusion weight is zero', () => {
    const run = planSearch(
      'q',
      { ranker: 'hybrid' },
      ports(),
      { weights: { lexical: 1, dense: 0 } },
      undefined,
    );
    expect(searches(run, 'original', 'hybrid', 'dense')).toBe(true);
    expect(searches(run, 'variant-1', 'hybrid', 'dense')).toBe(false);
    expect(searches(run, 'variant-1', 'hybrid', 'lexical')).toBe(true);
    expect(searches(run, 'original', 'bm25', 'dense')).toBe(false);
  });
});

describe('the branches stage', () => {
  it('returns the original lists and no traces when no enhancement is on', async () => {
    const run = planSearch('q', { ranker: 'bm25' }, ports({ lexical: { q: ['a', 'b'] } }), {}, undefined);
    const outcome = await runBranches(run);
    expect(outcome.lists.map((l) => [l.name, l.items.map((i) => i.id)])).toEqual([
      ['original:bm25', ['a', 'b']],
    ]);
    expect(outcome).toMatchObject({ expansions: null, hyde: null, adaptive: null });
    expect(run.warnings).toEqual([]);
  });

  it('fails only when the original search fails and no other branch found anything, having said why', async () => {
    const run = planSearch(
      'q',
      { enableHyDE: true },
      ports({ lexical: { q: ['a'], 'text of a': ['c'] }, failLexical: ['q'] }),
      {},
      undefined,
    );
    await expect(runBranches(run)).rejects.toThrow(/lexical search failed/);
    expect(run.warnings[0]).toMatch(/^The original query's search failed/);
  });
});

describe('the rerank stage', () => {
  const scoring = (scores: number[]): Reranker => ({ modelId: 'test-reranker', rerank: async () => scores });

  it('keeps the fused order when reranking is off, and says so when no reranker is configured', async () => {
    const search = ports();
    const pool = fused('a', 'b');
    const off = await rerank(
      planSearch('q', {}, search, {}, undefined),
      pool,
      await records(search, ['a', 'b']),
    );
    expect(off).toMatchObject({ candidates: pool, model: null, ms: 0 });
    const run = planSearch('q', { enableRerank: true }, search, {}, undefined);
    expect((await rerank(run, pool, await records(search, ['a', 'b']))).model).toBeNull();
    expect(run.warnings).toEqual([
      'Reranking was asked for but no reranker is configured; the fused order is kept.',
    ]);
  });

  it('reorders by the reranker, and keeps the fused order with a warning when it answers wrongly', async () => {
    const search = ports({}, { reranker: scoring([0.1, 0.9]) });
    const run = planSearch('q', { enableRerank: true }, search, {}, undefined);
    const out = await rerank(run, fused('a', 'b'), await records(search, ['a', 'b']));
    expect(out.candidates.map((c) => c.id)).toEqual(['b', 'a']);
    expect(out.scores.get('b')).toBe(0.9);
    expect(out.model).toBe('test-reranker');

    const broken = ports({}, { reranker: scoring([Number.NaN]) });
    const failing = planSearch('q', { enableRerank: true }, broken, {}, undefined);
    const kept = await rerank(failing, fused('a', 'b'), await records(broken, ['a', 'b']));
    expect(kept.candidates.map((c) => c.id)).toEqual(['a', 'b']);
    expect(failing.warnings[0]).toMatch(
      /^Reranking failed, the fused order is kept: the reranker returned 1 scores for 2/,
    );
  });
});

describe('the threshold stage', () => {
  it('drops candidates under minScore and keeps their similarity, or keeps all with a warning', async () => {
    const search = ports({ similarity: { a: 0.8, b: 0.2 } });
    const run = planSearch('q', { minScore: 0.5 }, search, {}, undefined);
    const out = await applyThreshold(run, fused('a', 'b'), Promise.resolve([1, 0]));
    expect(out.candidates.map((c) => c.id)).toEqual(['a']);
    expect(out.similarity.get('b')).toBe(0.2);

    const failing = planSearch('q', { minScore: 0.5 }, search, {}, undefined);
    const kept = await applyThreshold(failing, fused('a', 'b'), Promise.reject(new Error('no vector')));
    expect(kept.candidates).toHaveLength(2);
    expect(failing.warnings).toEqual(['The similarity threshold could not be applied: no vector']);
    expect(
      (await applyThreshold(planSearch('q', {}, search, {}, undefined), fused('a'), undefined)).similarity
        .size,
    ).toBe(0);
  });
});

describe('the assemble stage', () => {
  it('keeps the top K with their records, scores, provenance and reranker', async () => {
    const search = ports();
    const run = planSearch('q', { topK: 1 }, search, {}, undefined);
    const pool = fused('a', 'b');
    const hits = assembleHits(
      run,
      pool,
      await records(search, ['a', 'b']),
      { candidates: pool, scores: new Map([['a', 0.7]]), model: 'm', explanations: new Map(), ms: 0 },
      new Map([['a', 0.4]]),
    );
    expect(hits).toEqual([
      expect.objectContaining({
        chunkId: 'a',
        documentTitle: 'Document a',
        score: 0.7,
        similarity: 0.4,
        provenance: [{ branch: 'original:bm25', rank: 1, score: 9 }],
        rerank: { model: 'm' },
      }),
    ]);
  });

  it("reads the best passage's cosine from its similarity, else from the original query's dense list", () => {
    const hit = (chunkId: string, similarity: number | null) =>
      ({ chunkId, similarity }) as Parameters<typeof topCosine>[0];
    const dense = {
      name: 'original:dense',
      items: [
        { id: 'b', score: 0.62 },
        { id: 'a', score: 0.55 },
        { id: 'c', score: 0.4 },
      ],
    };
    const lists = [{ name: 'original:bm25', items: [{ id: 'a', score: 9 }] }, dense];
    expect(topCosine(hit('a', 0.58), lists)).toEqual([0.58]);
    expect(topCosine(hit('a', null), lists)).toEqual([0.55]);
    // Not in the dense list: at most as close as its last passage.
    expect(topCosine(hit('z', null), lists)).toEqual([0.4]);
    expect(topCosine(hit('a', null), [lists[0]])).toBeUndefined();
  });
});
