import { LTR_FEATURES, LTR_MODEL_FORMAT, LearnedReranker } from '@lumina/rag';
import type { LtrModel } from '@lumina/rag';
import { DataSource } from 'typeorm';
import { createEvalSearch } from '../modules/rag/eval-search';
import type { CachedEmbedder } from '../providers/cached-embedder';
import { EMBEDDER } from '../providers/providers.module';
import { readJson } from './helpers/http';
import type { Json } from './helpers/http';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

describe('POST /rag/search (embedded PGlite, local embedder)', () => {
  const env = testEnv();
  let server: TestApp;
  let documentIds: string[];

  const search = async (body: unknown): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${server.baseUrl}/rag/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await readJson(response) };
  };

  beforeAll(async () => {
    server = await startTestApp(env);
    documentIds = await seedDocuments(server.app.get(DataSource), server.app.get(EMBEDDER), RUNBOOK_CORPUS);
  });

  afterAll(async () => {
    await server.close();
  });

  it('ranks with BM25 and returns passages with heading paths and provenance', async () => {
    const { status, body } = await search({
      query: 'how to promote the standby replica',
      settings: { ranker: 'bm25', topK: 3 },
    });
    expect(status).toBe(200);
    expect(body.results.length).toBeGreaterThan(0);
    const [top] = body.results;
    expect(top.documentTitle).toBe('Database runbook');
    expect(top.headingPath).toEqual(['Failover']);
    expect(top.anchor).toBe('failover');
    expect(top.text).toMatch(/^Promote the standby replica/);
    expect(top.provenance).toEqual([expect.objectContaining({ branch: 'original:bm25', rank: 1 })]);
    expect(body.warnings).toEqual([]);
  });

  it('fuses BM25 and dense lists for the hybrid ranker', async () => {
    const { body } = await search({ query: 'replica failover', settings: { ranker: 'hybrid', topK: 5 } });
    const branches = new Set(body.results.flatMap((r: Json) => r.provenance.map((p: Json) => p.branch)));
    expect(branches).toEqual(new Set(['original:bm25', 'original:dense']));
  });

  it('restricts the search to the given documents', async () => {
    const { body } = await search({
      query: 'failover replica',
      settings: { documentIds: [documentIds[3]], ranker: 'hybrid' },
    });
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.every((r: Json) => r.documentId === documentIds[3])).toBe(true);
  });

  it('labels offline expansion and HyDE as pseudo-relevance feedback and searches their branches', async () => {
    const { body } = await search({
      query: 'replica failover',
      settings: { enableQueryExpansion: true, enableHyDE: true, expansionCount: 2 },
    });
    expect(body.expansions.source).toBe('prf');
    expect(body.expansions.variants.length).toBeGreaterThan(0);
    expect(body.hyde.source).toBe('prf');
    const branches = new Set(body.results.flatMap((r: Json) => r.provenance.map((p: Json) => p.branch)));
    expect(branches).toContain('variant-1:bm25');
    expect(branches).toContain('hyde:bm25');
  });

  it('flags belowThreshold when nothing is similar enough', async () => {
    const { body } = await search({ query: 'failover', settings: { minScore: 0.99 } });
    expect(body.belowThreshold).toBe(true);
    expect(body.results).toEqual([]);
  });

  it.each([
    ['bm25', 'who approves production access'],
    ['hybrid', 'the primary database ran out of disk'],
    ['dense', 'memory alarms for the cache'],
  ])('gives the eval command the same %s ranking as the API, chunk for chunk', async (ranker, query) => {
    const settings = { ranker, topK: 10, candidateK: 10 };
    const api = await search({ query, settings });
    const evalSearch = createEvalSearch(
      server.app.get(DataSource),
      env,
      server.app.get<CachedEmbedder>(EMBEDDER),
    );
    const evaluated = await evalSearch.search(query, settings as never);
    expect(api.body.results.length).toBeGreaterThan(0);
    expect(evaluated.results.map((r) => r.chunkId)).toEqual(api.body.results.map((r: Json) => r.chunkId));
    expect(evaluated.results.map((r) => r.score)).toEqual(api.body.results.map((r: Json) => r.score));
  });

  it('reranks an eval search with a model handed to it (one fitted in the same command)', async () => {
    const settings = { ranker: 'bm25' as const, topK: 5, candidateK: 5 };
    const query = 'database replica disk production cache';
    const features = [...LTR_FEATURES];
    // Only the fused rank counts, reversed: the reranked order is the search's order upside down.
    const model: LtrModel = {
      format: LTR_MODEL_FORMAT,
      version: 'spec-reversed',
      features,
      mean: features.map(() => 0),
      scale: features.map(() => 1),
      weights: features.map((f) => (f === 'fusedLogRank' ? 1 : 0)),
      training: {} as LtrModel['training'],
    };
    const build = (reranker?: LearnedReranker) =>
      createEvalSearch(
        server.app.get(DataSource),
        env,
        server.app.get<CachedEmbedder>(EMBEDDER),
        {},
        reranker,
      );
    const plain = await build().search(query, settings);
    const learned = build(new LearnedReranker(model));
    expect(learned.rerankerId).toBe('ltr:spec-reversed');
    const reranked = await learned.search(query, { ...settings, enableRerank: true });
    expect(reranked.warnings).toEqual([]);
    expect(plain.results.length).toBeGreaterThan(1);
    expect(reranked.results.map((r) => r.chunkId)).toEqual(plain.results.map((r) => r.chunkId).reverse());
  });

  it.each([
    ['an empty query', { query: '' }, /query must not be empty/],
    ['a query of spaces', { query: '   ' }, /only spaces/],
    ['a 10 001-character query', { query: 'x'.repeat(10_001) }, /shorter than 10000/],
    ['topK 0', { query: 'ok', settings: { topK: 0 } }, /topK must be 1 or more/],
    ['topK 51', { query: 'ok', settings: { topK: 51 } }, /topK must be at most 50/],
    [
      'an unknown settings key',
      { query: 'ok', settings: { surprise: true } },
      /property settings.surprise should not exist/,
    ],
    ['an unknown body field', { query: 'ok', extra: 1 }, /property extra should not exist/],
    [
      'an unknown ranker',
      { query: 'ok', settings: { ranker: 'magic' } },
      /ranker must be one of dense, bm25, hybrid/,
    ],
    [
      'SQL as a document id',
      { query: 'ok', settings: { documentIds: ["1' OR '1'='1"] } },
      /documentIds must be document ids/,
    ],
    ['a number as the query', { query: 42 }, /query must be a string/],
    [
      'an enhancement mode that does not exist',
      { query: 'ok', settings: { enableHyDE: 'sometimes' } },
      /enableHyDE must be true, false or \\"adaptive\\"/,
    ],
  ])('rejects %s with a 400 that says why', async (_label, body, message) => {
    const response = await search(body);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.message)).toMatch(message);
  });

  it('treats SQL in the query as text', async () => {
    const { status, body } = await search({ query: "'; DROP TABLE chunks; -- failover" });
    expect(status).toBe(200);
    expect(body.results[0].documentTitle).toBe('Database runbook');
    const [{ n }] = await server.app.get(DataSource).query(`SELECT count(*)::int AS n FROM chunks`);
    expect(n).toBeGreaterThan(0);
  });
});
