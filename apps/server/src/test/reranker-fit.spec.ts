import { LTR_MODEL_FORMAT } from '@lumina/rag';
import {
  PLATFORM_SERVICES,
  ScriptedOpenAiServer,
  completion,
  platformServicePage,
  platformServiceQuestion,
} from '@lumina/testing-llm';
import { DataSource } from 'typeorm';
import type { Env } from '../config/env.schema';
import { EMBEDDER } from '../providers/providers.module';
import type { Json } from './helpers/http';
import { seedDocuments } from './helpers/seed-documents';
import type { SeedDocument } from './helpers/seed-documents';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

const CORPUS: SeedDocument[] = PLATFORM_SERVICES.map(platformServicePage);

const QUESTIONS = PLATFORM_SERVICES.map((service, i) => ({
  question: platformServiceQuestion(service, i),
  name: service[0],
}));

async function call(
  server: TestApp,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Seeds the corpus and a bank of one question per service (plus one out of scope): the bank's and the
 *  documents' ids. */
async function seedBank(server: TestApp, name: string): Promise<{ bankId: string; documentIds: string[] }> {
  const ids = await seedDocuments(server.app.get(DataSource), server.app.get(EMBEDDER), CORPUS);
  const bankId = (await call(server, 'POST', '/question-banks', { name })).body.id as string;
  const added = await call(server, 'POST', `/question-banks/${bankId}/items`, {
    items: [
      ...QUESTIONS.map((q, i) => ({ question: q.question, expectedSources: [{ documentId: ids[i] }] })),
      { question: 'how tall is a giraffe', inScope: false },
    ],
  });
  expect(added.status).toBe(201);
  return { bankId, documentIds: ids };
}

async function waitForFit(server: TestApp, id: string): Promise<Json> {
  const until = Date.now() + 120_000;
  for (;;) {
    const { body } = await call(server, 'GET', `/rerankers/${id}`);
    if (body.status === 'ready' || body.status === 'failed') return body;
    if (Date.now() > until) throw new Error(`reranker fit still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a learned reranker fitted on a question bank (queue, PGlite, offline)', () => {
  const env: Env = testEnv();
  let server: TestApp;
  let bankId: string;
  let documentIds: string[];

  beforeAll(async () => {
    server = await startTestApp(env);
    ({ bankId, documentIds } = await seedBank(server, 'Platform on-call'));
  });

  afterAll(async () => {
    await server?.close();
  });

  it('fits in a job, measures itself on the bank, switches itself on and serves enableRerank', async () => {
    const queued = await call(server, 'POST', `/question-banks/${bankId}/rerankers`, {});
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({
      version: 'platform-on-call-v1',
      bankId,
      bankName: 'Platform on-call',
      status: 'queued',
      learner: 'linear',
      candidateK: 30,
      active: false,
      activateWhenReady: true,
      measurement: null,
    });

    const fitted = await waitForFit(server, queued.body.id);
    expect(fitted.error).toBeNull();
    expect(fitted.status).toBe('ready');
    const { measurement } = fitted;
    // Every in-scope question finds its page among several candidates; 14 questions, 14 pages: 5 folds.
    expect(measurement).toMatchObject({
      folds: 5,
      queries: 14,
      groupedBySource: true,
      configured: null,
      preferred: 'learned',
    });
    for (const key of ['ndcgBefore', 'ndcgAfter', 'p'] as const) {
      expect(measurement[key]).toBeGreaterThanOrEqual(0);
      expect(measurement[key]).toBeLessThanOrEqual(1);
    }
    expect(fitted.training).toEqual({ queries: 14, pairs: expect.any(Number) });
    expect(fitted.importance.length).toBeGreaterThan(0);
    // Switched on unless it reranked worse than the search's own order on its bank.
    if (measurement.ndcgAfter >= measurement.ndcgBefore) {
      expect(fitted).toMatchObject({ active: true, note: null });
    } else {
      expect(fitted.active).toBe(false);
      expect(fitted.note).toMatch(/^Not switched on: on its bank it reranked worse/);
      expect((await call(server, 'POST', `/rerankers/${fitted.id}/activate`)).body.active).toBe(true);
    }

    expect((await call(server, 'GET', '/rerankers/active')).body).toEqual({
      model: 'ltr:platform-on-call-v1',
      source: 'fitted',
      rerankerId: fitted.id,
    });
    const health = await call(server, 'GET', '/health');
    expect(health.body.reranker).toEqual({
      configured: true,
      model: 'ltr:platform-on-call-v1',
      source: 'fitted',
    });

    // The model, as RERANK_MODEL_FILE would read it elsewhere.
    const model = await call(server, 'GET', `/rerankers/${fitted.id}/model`);
    expect(model.status).toBe(200);
    expect(model.body).toMatchObject({ format: LTR_MODEL_FORMAT, version: 'platform-on-call-v1' });
    expect(model.body.training).toMatchObject({ source: 'bank:Platform on-call', queries: 14 });

    // A search with enableRerank is reordered by it, and each hit says by which model and why.
    const search = await call(server, 'POST', '/rag/search', {
      query: QUESTIONS[1].question,
      settings: { enableRerank: true, topK: 3 },
    });
    expect(search.status).toBe(200);
    expect(search.body.warnings).toEqual([]);
    expect(search.body.results[0].rerank.model).toBe('ltr:platform-on-call-v1');
    expect(Object.keys(search.body.results[0].rerank.contributions)).toContain('bm25');

    // Listed for its bank; a second fit is the bank's v2.
    const listed = await call(server, 'GET', `/rerankers?bankId=${bankId}`);
    expect(listed.body).toMatchObject({ total: 1, items: [{ id: fitted.id, active: true }] });
    const second = await call(server, 'POST', `/question-banks/${bankId}/rerankers`, {
      learner: 'lambdamart',
      activate: false,
    });
    expect(second.body).toMatchObject({ version: 'platform-on-call-v2', learner: 'lambdamart' });
    const trees = await waitForFit(server, second.body.id);
    expect(trees).toMatchObject({ status: 'ready', active: false, note: null });
    expect((await call(server, 'GET', `/rerankers/${trees.id}/model`)).body.format).toBe(
      'lumina-ltr-trees-v1',
    );
    // Still the first model serves.
    expect((await call(server, 'GET', '/rerankers/active')).body.rerankerId).toBe(fitted.id);

    // Switched off: offline, nothing reranks any more, and the search says so.
    const off = await call(server, 'POST', `/rerankers/${fitted.id}/deactivate`);
    expect(off.body.active).toBe(false);
    expect((await call(server, 'GET', '/rerankers/active')).body).toEqual({
      model: null,
      source: null,
      rerankerId: null,
    });
    const unranked = await call(server, 'POST', '/rag/search', {
      query: QUESTIONS[1].question,
      settings: { enableRerank: true, topK: 3 },
    });
    expect(unranked.body.warnings).toEqual([
      'Reranking was asked for but no reranker is configured; the fused order is kept.',
    ]);

    expect((await call(server, 'DELETE', `/rerankers/${trees.id}`)).status).toBe(204);
    expect((await call(server, 'GET', `/rerankers/${trees.id}`)).status).toBe(404);
  });

  it('answers bad requests with a 4xx, a code and a sentence', async () => {
    const badLearner = await call(server, 'POST', `/question-banks/${bankId}/rerankers`, {
      learner: 'forest',
    });
    expect(badLearner.status).toBe(400);
    expect(badLearner.body).toMatchObject({ code: 'invalid_request' });
    expect(JSON.stringify(badLearner.body.message)).toMatch(/learner must be one of linear, lambdamart/);

    const unknown = await call(server, 'POST', `/question-banks/${crypto.randomUUID()}/rerankers`, {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');

    const emptyBank = (await call(server, 'POST', '/question-banks', { name: 'empty' })).body.id;
    const empty = await call(server, 'POST', `/question-banks/${emptyBank}/rerankers`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toEqual([`question bank ${emptyBank} has no items to fit a reranker on`]);

    // Too few in-scope questions with expected sources: refused up front, and no model is recorded.
    const small = (await call(server, 'POST', '/question-banks', { name: 'small' })).body.id;
    await call(server, 'POST', `/question-banks/${small}/items`, {
      items: [
        {
          question: 'Which service pages the on-call engineer?',
          expectedSources: [{ documentId: documentIds[0] }],
        },
        {
          question: 'Who rotates the database credentials?',
          expectedSources: [{ documentId: documentIds[1] }],
        },
        { question: 'What is the capital of Mongolia?', inScope: false },
      ],
    });
    const bank = await call(server, 'GET', `/question-banks/${small}`);
    expect(bank.body).toMatchObject({ itemCount: 3, judgedItemCount: 2 });
    const tooFew = await call(server, 'POST', `/question-banks/${small}/rerankers`, {});
    expect(tooFew.status).toBe(400);
    expect(tooFew.body).toMatchObject({ code: 'invalid_request' });
    expect(tooFew.body.message).toEqual([
      `question bank ${small} has 2 in-scope question(s) with expected sources; fitting a reranker needs at least 10`,
    ]);
    expect((await call(server, 'GET', `/rerankers?bankId=${small}`)).body.total).toBe(0);

    expect((await call(server, 'GET', '/rerankers/not-a-uuid')).status).toBe(400);
    expect((await call(server, 'GET', `/rerankers?bankId=${crypto.randomUUID()}`)).status).toBe(404);
  });

  it('fails a fit on a bank whose questions the search cannot find, saying why', async () => {
    // Words no page holds: the search finds no candidate for either question.
    const lost = (await call(server, 'POST', '/question-banks', { name: 'lost questions' })).body.id;
    const animals = [
      'zebra',
      'giraffe',
      'okapi',
      'tapir',
      'gazelle',
      'ibex',
      'kudu',
      'oryx',
      'eland',
      'impala',
    ];
    const added = await call(server, 'POST', `/question-banks/${lost}/items`, {
      items: animals.map((animal, i) => ({
        question: `${animal} savanna migration`,
        expectedSources: [{ documentId: documentIds[i % documentIds.length] }],
      })),
    });
    expect(added.status).toBe(201);
    const queued = await call(server, 'POST', `/question-banks/${lost}/rerankers`, {});
    const failed = await waitForFit(server, queued.body.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(
      /^only 0 question\(s\) of the bank have an expected source among the search's candidates/,
    );
    expect((await call(server, 'POST', `/rerankers/${failed.id}/activate`)).status).toBe(409);
    expect((await call(server, 'GET', `/rerankers/${failed.id}/model`)).status).toBe(409);
  });
});

/**
 * An LLM is configured, so it reranks listwise: the fit measures it on the same candidates, and the
 * bank's figures decide which of the two serves enableRerank.
 */
describe('a fitted reranker against the LLM reranker (scripted OpenAI-compatible server)', () => {
  let llm: ScriptedOpenAiServer;
  let server: TestApp;
  let bankId: string;

  beforeAll(async () => {
    llm = await ScriptedOpenAiServer.start();
    server = await startTestApp(
      testEnv({
        LLM_BASE_URL: llm.baseUrl,
        LLM_MODEL: 'scripted-model',
        LLM_TIMEOUT_MS: '2000',
        LLM_MAX_RETRIES: '0',
      }),
    );
    ({ bankId } = await seedBank(server, 'Platform with a model'));
  });

  afterAll(async () => {
    await server?.close();
    await llm?.close();
  });

  it('reranks every question with the LLM too, and serves whichever the bank prefers', async () => {
    // The model puts the search's third candidate first: worse than the search's own order here.
    llm.reset();
    llm.on(() => completion('Ranking: [3] > [1] > [2]'));
    const queued = await call(server, 'POST', `/question-banks/${bankId}/rerankers`, {});
    const fitted = await waitForFit(server, queued.body.id);
    expect(fitted.status).toBe('ready');
    const { measurement } = fitted;
    expect(measurement.configured).toMatchObject({
      model: 'scripted-model/listwise-rerank-v1',
      calls: measurement.queries,
    });
    expect(llm.requestsTo('/v1/chat/completions')).toHaveLength(measurement.queries);
    expect(measurement.preferred).toBe(
      measurement.ndcgAfter > measurement.configured.ndcg ? 'learned' : 'configured',
    );
    const active = (await call(server, 'GET', '/rerankers/active')).body;
    if (measurement.preferred === 'learned' && fitted.active) {
      expect(active).toEqual({
        model: 'ltr:platform-with-a-model-v1',
        source: 'fitted',
        rerankerId: fitted.id,
      });
    } else {
      expect(active).toEqual({ model: 'scripted-model/listwise-rerank-v1', source: 'llm', rerankerId: null });
    }
  });
});
