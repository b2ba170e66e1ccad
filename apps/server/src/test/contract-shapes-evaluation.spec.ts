import { PLATFORM_SERVICES, platformServicePage, platformServiceQuestion } from '@lumina/testing-llm';
import { DataSource } from 'typeorm';
import { EMBEDDER } from '../providers/providers.module';
import type { Json } from './helpers/http';
import { contractCaller } from './helpers/contract-call';
import { neverSent, newLedger } from './helpers/contract-shape';
import { seedDocuments } from './helpers/seed-documents';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';

const QUESTIONS = PLATFORM_SERVICES.map((service, i) => platformServiceQuestion(service, i));

/**
 * Every answer of the evaluation, ablation and reranker routes is checked against the response schema
 * its OpenAPI operation names: no field that the schema lacks, and no declared field that no answer
 * ever holds. Offline (no LLM): what only a configured reranker or a measured loss would send is written
 * into the stored rows, as a fit or an ablation would have stored it.
 */
describe('evaluation, ablation and reranker answers match their contract schemas, both ways (embedded PGlite)', () => {
  let server: TestApp;
  let dataSource: DataSource;
  let call: (method: string, path: string, body?: unknown) => Promise<Json>;
  let documentIds: string[];
  const ledger = newLedger();

  /** Set-up (banks and their items, whose answers contract-shapes.spec checks): not recorded. */
  async function setUp(path: string, body: unknown): Promise<Json> {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  }

  /** GETs `path` until its status is one of `done`. */
  async function settle(path: string, done: string[]): Promise<Json> {
    const until = Date.now() + 150_000;
    for (;;) {
      const answer = await call('GET', path);
      if (done.includes(answer.status)) return answer;
      if (Date.now() > until) throw new Error(`${path} still ${answer.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  beforeAll(async () => {
    server = await startTestApp(testEnv());
    dataSource = server.app.get(DataSource);
    documentIds = await seedDocuments(
      dataSource,
      server.app.get(EMBEDDER),
      PLATFORM_SERVICES.map(platformServicePage),
    );
    const document = await (await fetch(`${server.baseUrl}/api/docs-json`)).json();
    call = contractCaller(server.baseUrl, document, ledger);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
  });

  it('evaluation runs, their comparison, ablations, enhancement warnings and learned rerankers', async () => {
    const bank = await setUp('/question-banks', { name: 'Platform on-call' });
    const [{ id: chunkId }] = await dataSource.query(`SELECT id FROM chunks WHERE document_id = $1 LIMIT 1`, [
      documentIds[0],
    ]);
    await setUp(`/question-banks/${bank.id}/items`, {
      items: [
        // Judged by chunk, then by document (one per service: enough to fit a reranker on).
        { question: QUESTIONS[0], expectedSources: [{ documentId: documentIds[0], chunkId }] },
        ...QUESTIONS.slice(1).map((question, i) => ({
          question,
          expectedSources: [{ documentId: documentIds[i + 1] }],
        })),
        // Out of scope, yet the pages answer it: refused only where the threshold refuses everything.
        { question: QUESTIONS[1], inScope: false },
        { question: 'how tall is a giraffe', inScope: false },
        // In scope without a relevant source: not scored, and says why.
        { question: 'who wrote the first page', expectedSources: [{ documentId: documentIds[2], grade: 0 }] },
      ],
    });

    // Two runs: the app's search, and one whose threshold refuses everything (so the comparison has
    // items only A hit, and refusal flips each way).
    const queued = await call('POST', `/question-banks/${bank.id}/evaluate`, { settings: { topK: 5 } });
    const answered = await settle(`/eval-runs/${queued.id}`, ['completed', 'failed']);
    expect(answered.status).toBe('completed');
    const strict = await call('POST', `/question-banks/${bank.id}/evaluate`, {
      settings: { topK: 5, ranker: 'dense', minScore: 1 },
    });
    const refused = await settle(`/eval-runs/${strict.id}`, ['completed', 'failed']);
    expect(refused.status).toBe('completed');
    await call('GET', `/eval-runs?bankId=${bank.id}`);
    const compared = await call('GET', `/eval-runs/compare?a=${answered.id}&b=${refused.id}`);
    expect(compared.refusalFlips.onlyB.length).toBeGreaterThan(0);
    await call('GET', `/eval-runs/compare?a=${refused.id}&b=${answered.id}`);

    // An ablation over a smaller bank: twelve combinations, each an ordinary run.
    const small = await setUp('/question-banks', { name: 'Platform, a few questions' });
    await setUp(`/question-banks/${small.id}/items`, {
      items: [
        ...QUESTIONS.slice(0, 3).map((question, i) => ({
          question,
          expectedSources: [{ documentId: documentIds[i] }],
        })),
        { question: 'how tall is a giraffe', inScope: false },
      ],
    });
    const started = await call('POST', `/question-banks/${small.id}/ablation`, { settings: { topK: 5 } });
    const ablation = await settle(`/ablations/${started.id}`, ['completed', 'failed']);
    expect(ablation.status).toBe('completed');
    await call('GET', `/question-banks/${small.id}/ablations`);
    // A measured loss, as an ablation would store one: BM25 with expansion under BM25 alone.
    const row = (expansion: boolean) =>
      ablation.rows.find(
        (candidate: Json) =>
          candidate.switches.ranker === 'bm25' &&
          candidate.switches.enableQueryExpansion === expansion &&
          candidate.switches.enableHyDE === false,
      ).runId;
    for (const [runId, ndcg] of [
      [row(false), 0.9],
      [row(true), 0.4],
    ] as const) {
      await dataSource.query(
        `UPDATE eval_runs SET metrics = jsonb_set(metrics, '{ndcg@10}', to_jsonb($2::float8)) WHERE id = $1`,
        [runId, ndcg],
      );
    }
    const warnings = await call('GET', '/enhancement-warnings');
    expect(warnings.find((bankWarnings: Json) => bankWarnings.bankId === small.id)?.worse).toContainEqual(
      expect.objectContaining({ enhancement: 'expansion', ranker: 'bm25', off: 0.9, on: 0.4 }),
    );

    // A learned reranker: fitted, listed, switched off and on, deleted.
    const fit = await call('POST', `/question-banks/${bank.id}/rerankers`, { learner: 'linear' });
    const fitted = await settle(`/rerankers/${fit.id}`, ['ready', 'failed']);
    expect(fitted.status).toBe('ready');
    // What a fit measures beside a configured reranker (a /v1/rerank endpoint or the LLM), as it stores it.
    await dataSource.query(
      `UPDATE reranker_models
          SET measurement = jsonb_set(measurement, '{configured}', '{"model":"scripted","ndcg":0.5,"p":0.2,"calls":14}')
        WHERE id = $1`,
      [fitted.id],
    );
    await call('GET', `/rerankers/${fitted.id}`);
    await call('GET', `/rerankers?bankId=${bank.id}`);
    await call('POST', `/rerankers/${fitted.id}/activate`);
    await call('GET', '/rerankers/active');
    await call('POST', `/rerankers/${fitted.id}/deactivate`);
    await call('GET', '/rerankers/active');
    expect((await fetch(`${server.baseUrl}/rerankers/${fitted.id}`, { method: 'DELETE' })).status).toBe(204);

    expect(ledger.undeclared).toEqual([]);
    expect(neverSent(ledger)).toEqual([]);
  }, 420_000);
});
