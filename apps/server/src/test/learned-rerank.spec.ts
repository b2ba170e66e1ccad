import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LTR_FEATURES, LTR_MODEL_FORMAT, ltrFeatureRows, toRerankCandidate } from '@lumina/rag';
import type { LtrModel } from '@lumina/rag';
import { DataSource } from 'typeorm';
import { SqlChunkSearch } from '../modules/rag/repositories/sql-chunk-search';
import { EMBEDDER } from '../providers/providers.module';
import { readJson } from './helpers/http';
import type { Json } from './helpers/http';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { eventOf, postSse } from './helpers/sse-client';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

/** A hand-made model over three features (title BM25, passage BM25, proximity), written to a file. */
const MODEL: LtrModel = {
  format: LTR_MODEL_FORMAT,
  version: 'test-title-v1',
  features: ['bm25Title', 'bm25', 'spanDensity'],
  mean: [0, 1, 0.2],
  scale: [1, 2, 0.5],
  weights: [3, 1, 0.5],
  training: {
    source: 'hand-made',
    queries: 0,
    candidates: 0,
    pairs: 0,
    candidateDepth: 30,
    seed: 1,
    l2: 0,
    maxPairsPerQuery: 0,
    iterations: 0,
    converged: true,
    loss: { initial: 0, final: 0 },
  },
};

describe('the learned reranker (RERANK_MODEL_FILE, embedded PGlite, offline)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lumina-ltr-'));
  const modelFile = join(dir, 'model.json');
  writeFileSync(modelFile, JSON.stringify(MODEL));
  const env = testEnv({ RERANK_MODEL_FILE: modelFile });
  let server: TestApp;

  const post = async (path: string, body: unknown): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await readJson(response) };
  };

  beforeAll(async () => {
    server = await startTestApp(env);
    await seedDocuments(server.app.get(DataSource), server.app.get(EMBEDDER), RUNBOOK_CORPUS);
  });

  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is the offline reranker of enableRerank: each passage names the model and each feature it weighed', async () => {
    const { status, body } = await post('/rag/search', {
      query: 'replica failover',
      settings: { enableRerank: true, topK: 3 },
    });
    expect(status).toBe(200);
    expect(body.warnings).toEqual([]);
    expect(body.results.length).toBeGreaterThan(1);
    for (const hit of body.results) {
      expect(hit.rerank.model).toBe('ltr:test-title-v1');
      expect(Object.keys(hit.rerank.contributions)).toEqual(['bm25Title', 'bm25', 'spanDensity']);
      const sum = Object.values(hit.rerank.contributions as Record<string, number>).reduce(
        (a, v) => a + v,
        0,
      );
      expect(hit.score).toBeCloseTo(sum, 3);
    }
    const scores = body.results.map((hit: Json) => hit.score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
  });

  it('leaves searches without enableRerank exactly as they were', async () => {
    const { body } = await post('/rag/search', { query: 'replica failover', settings: { topK: 3 } });
    expect(body.results.every((hit: Json) => hit.rerank === undefined)).toBe(true);
    expect(body.results[0].provenance[0]).toEqual(
      expect.objectContaining({ branch: 'original:bm25', rank: 1 }),
    );
  });

  it('stores the model version and the contributions in the answer trace', async () => {
    const { events } = await postSse(`${server.baseUrl}/chat`, {
      message: 'How do I promote the standby replica?',
      settings: { enableRerank: true },
    });
    const retrieval = eventOf(events, 'retrieval');
    expect(retrieval.passages[0].rerank.model).toBe('ltr:test-title-v1');
    const done = eventOf(events, 'done');
    const trace = await readJson(await fetch(`${server.baseUrl}/messages/${done.messageId}/trace`));
    expect(trace.settings.enableRerank).toBe(true);
    expect(trace.retrieved.length).toBeGreaterThan(0);
    for (const passage of trace.retrieved) {
      expect(passage.rerank.model).toBe('ltr:test-title-v1');
      expect(passage.rerank.contributions).toEqual({
        bm25Title: expect.any(Number),
        bm25: expect.any(Number),
        spanDensity: expect.any(Number),
      });
    }
  });

  it('reports the learned reranker in /health', async () => {
    const health = await readJson(await fetch(`${server.baseUrl}/health`));
    expect(health.reranker).toEqual({ configured: true, model: 'ltr:test-title-v1', source: 'file' });
  });

  it('reads features from the index that agree with the SQL BM25 and with the stored titles', async () => {
    const search = new SqlChunkSearch(server.app.get(DataSource), {
      k1: env.BM25_K1,
      b: env.BM25_B,
      efSearch: 40,
    });
    const query = 'database replica failover';
    const hits = await search.lexical(query, 10);
    expect(hits.length).toBeGreaterThan(1);
    const records = await search.fetch(hits.map((h) => h.chunkId));
    const evidence = await search.rerankEvidence(
      query,
      hits.map((h) => h.chunkId),
    );
    const candidates = records.map((r, i) =>
      toRerankCandidate(r.chunkId, r, i + 1, [
        { branch: 'original:bm25', rank: i + 1, score: hits[i].score },
      ]),
    );
    const rows = ltrFeatureRows(candidates, evidence);
    const column = (name: (typeof LTR_FEATURES)[number]) => LTR_FEATURES.indexOf(name);
    hits.forEach((hit, i) => expect(rows[i][column('bm25')]).toBeCloseTo(hit.score, 6));
    // "database" is in the runbook's title only; the incident review's title holds no query word.
    const byTitle = new Map(candidates.map((c, i) => [c.title, rows[i]]));
    expect(byTitle.get('Database runbook')![column('bm25Title')]).toBeGreaterThan(0);
    expect(byTitle.get('Incident review')![column('bm25Title')]).toBe(0);
  });
});
