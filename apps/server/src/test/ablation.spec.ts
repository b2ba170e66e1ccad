import { bestAblationRow, enhancementsWorseThanOff } from '@lumina/eval';
import type { AblationRow } from '@lumina/shared';
import { DataSource } from 'typeorm';
import type { Env } from '../config/env.schema';
import { EMBEDDER } from '../providers/providers.module';
import type { Json } from './helpers/http';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

/**
 * An ablation on a really indexed corpus, offline (no LLM, no reranker): one request, one job, twelve
 * combinations (three rankers × expansion × HyDE, written by PRF), each an ordinary evaluation run.
 */
describe('ablations (queue, PGlite, every combination the server can run)', () => {
  // No adaptive policy: an adaptive branch runs unless something else (a measured loss) stops it.
  const env: Env = { ...testEnv(), EXPANSION_POLICY_FILE: 'off' };
  let server: TestApp;
  let bankId: string;

  const call = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };

  beforeAll(async () => {
    server = await startTestApp(env);
    const [runbook, cache, onboarding, incident] = await seedDocuments(
      server.app.get(DataSource),
      server.app.get(EMBEDDER),
      RUNBOOK_CORPUS,
    );
    bankId = (await call('POST', '/question-banks', { name: 'runbook ablation' })).body.id;
    const added = await call('POST', `/question-banks/${bankId}/items`, {
      items: [
        { question: 'how do I promote the standby replica', expectedSources: [{ documentId: runbook }] },
        { question: 'are redis evictions disabled', expectedSources: [{ documentId: cache }] },
        { question: 'who approves production access', expectedSources: [{ documentId: onboarding }] },
        { question: 'why did the failover take four minutes', expectedSources: [{ documentId: incident }] },
        { question: 'zebra giraffe savanna migration', inScope: false },
      ],
    });
    expect(added.status).toBe(201);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('runs every combination in one job and names the best by nDCG@10, LLM calls, then latency', async () => {
    const started = await call('POST', `/question-banks/${bankId}/ablation`, { settings: { topK: 5 } });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({
      bankId,
      status: 'queued',
      total: 12,
      finished: 0,
      generator: 'prf',
      rerankAvailable: false,
      bestRunId: null,
    });
    expect(started.body.baseSettings).toMatchObject({ topK: 5 });
    expect(started.body.bestRule).toMatch(/nDCG@10.*LLM calls.*latency/);
    const queuedRows: AblationRow[] = started.body.rows;
    expect(queuedRows).toHaveLength(12);
    expect(new Set(queuedRows.map((row) => JSON.stringify(row.switches))).size).toBe(12);
    expect(queuedRows.every((row) => row.status === 'queued' && row.figures === null)).toBe(true);
    expect(queuedRows.every((row) => !row.switches.enableRerank)).toBe(true);
    expect(queuedRows[0].label).toBe('bm25 only');
    expect(queuedRows.map((row) => row.label)).toContain('hybrid · expansion (PRF) · HyDE (PRF)');

    const until = Date.now() + 120_000;
    let ablation: Json;
    const seenProgress = new Set<number>();
    for (;;) {
      ablation = (await call('GET', `/ablations/${started.body.id}`)).body;
      seenProgress.add(ablation.finished);
      if (ablation.status === 'completed' || ablation.status === 'failed') break;
      if (Date.now() > until) throw new Error(`ablation still ${ablation.status} at ${ablation.finished}/12`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(ablation.status).toBe('completed');
    expect(ablation.finished).toBe(12);
    expect(ablation.finishedAt).toEqual(expect.any(String));
    const rows: AblationRow[] = ablation.rows;
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'completed', error: null });
      const figures = row.figures!;
      for (const key of ['ndcg@10', 'mrr@10', 'latencyP50Ms'] as const) {
        expect(Number.isFinite(figures[key])).toBe(true);
        expect(figures[key]).toBeGreaterThanOrEqual(0);
      }
      expect(figures['ndcg@10']).toBeLessThanOrEqual(1);
      // Offline: PRF writes expansions and HyDE passages, so no search calls a model.
      expect(figures.llmCalls).toBe(0);
      // The offline answerer writes answers: support and the refusal figures are rates.
      for (const key of ['support', 'inScopeRefused', 'outOfScopeAnswered'] as const) {
        expect(figures[key]).toEqual(expect.any(Number));
        expect(figures[key]!).toBeGreaterThanOrEqual(0);
        expect(figures[key]!).toBeLessThanOrEqual(1);
      }
    }
    // BM25 alone ranks every runbook question's document first on this corpus.
    expect(rows[0].figures!['ndcg@10']).toBe(1);
    // The best row follows the stated rule: the highest nDCG@10, then fewer LLM calls, then lower latency.
    const top = Math.max(...rows.map((row) => row.figures!['ndcg@10']));
    const best = rows.find((row) => row.runId === ablation.bestRunId)!;
    expect(best.figures!['ndcg@10']).toBe(top);
    const tied = rows.filter((row) => Math.abs(row.figures!['ndcg@10'] - top) <= 1e-9);
    expect(best.figures!.latencyP50Ms).toBe(Math.min(...tied.map((row) => row.figures!.latencyP50Ms)));
    expect(bestAblationRow(rows)?.runId).toBe(ablation.bestRunId);

    // Each combination is an ordinary run: its page shows its settings, its ablation and its model calls.
    const expanded = rows.find((row) => row.label === 'dense · expansion (PRF)')!;
    const run = (await call('GET', `/eval-runs/${expanded.runId}`)).body;
    expect(run).toMatchObject({
      status: 'completed',
      ablationId: ablation.id,
      llmCalls: 0,
      settings: { ranker: 'dense', enableQueryExpansion: true, enableHyDE: false, topK: 5 },
      promptVersions: { queryExpansion: 'prf', hyde: null },
    });
    expect(run.metrics['ndcg@10']).toBe(expanded.figures!['ndcg@10']);
    expect(run.timings.queryP50Ms).toBe(expanded.figures!.latencyP50Ms);
    const compared = await call('GET', `/eval-runs/compare?a=${rows[0].runId}&b=${expanded.runId}`);
    expect(compared.status).toBe(200);

    const listed = await call('GET', `/question-banks/${bankId}/ablations`);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ total: 1, page: 1 });
    expect(listed.body.items[0]).toMatchObject({
      id: ablation.id,
      status: 'completed',
      finished: 12,
      total: 12,
    });
    const runs = await call('GET', `/eval-runs?bankId=${bankId}&limit=100`);
    expect(runs.body.total).toBe(12);

    // The settings drawer's warnings: each enhancement that alone scored under its ranker alone here.
    const warnings = await call('GET', '/enhancement-warnings');
    expect(warnings.status).toBe(200);
    const mine = (warnings.body as Json[]).find((w) => w.bankId === bankId);
    const worse = enhancementsWorseThanOff(rows);
    if (worse.length === 0) expect(mine).toBeUndefined();
    else
      expect(mine).toEqual({
        bankId,
        bankName: 'runbook ablation',
        ablationId: ablation.id,
        generator: 'prf',
        finishedAt: ablation.finishedAt,
        worse,
      });
    for (const item of mine?.worse ?? []) expect(item.on).toBeLessThan(item.off);

    // The adaptive policy never runs a branch this bank measured worse than off: with that branch
    // adaptive, every item retrieves what the ranker alone retrieved.
    const blocked = worse.find((w) => w.enhancement !== 'rerank');
    if (blocked) {
      const key = blocked.enhancement === 'expansion' ? 'enableQueryExpansion' : 'enableHyDE';
      const queued = await call('POST', `/question-banks/${bankId}/evaluate`, {
        settings: { topK: 5, ranker: blocked.ranker, [key]: 'adaptive' },
      });
      expect(queued.status).toBe(202);
      let adaptiveRun: Json;
      for (;;) {
        adaptiveRun = (await call('GET', `/eval-runs/${queued.body.id}`)).body;
        if (adaptiveRun.status === 'completed' || adaptiveRun.status === 'failed') break;
        if (Date.now() > until) throw new Error(`adaptive run still ${adaptiveRun.status}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(adaptiveRun.status).toBe('completed');
      const alone = (await call('GET', `/eval-runs/${blocked.offRunId}`)).body;
      const retrieved = (run: Json) =>
        Object.fromEntries(run.perItem.map((item: Json) => [item.itemId, item.retrievedChunkIds]));
      expect(retrieved(adaptiveRun)).toEqual(retrieved(alone));
      for (const item of adaptiveRun.perItem)
        expect(item.warnings).not.toContain(expect.stringMatching(/adaptive/));
    }
  });

  it('answers 404 for unknown banks and ablations, 400 for empty banks, bad ids and bad settings', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const missing = await call('POST', `/question-banks/${unknown}/ablation`, {});
    expect(missing.status).toBe(404);
    expect(JSON.stringify(missing.body.message)).toMatch(/not found/);
    expect((await call('GET', `/ablations/${unknown}`)).status).toBe(404);
    expect((await call('GET', `/question-banks/${unknown}/ablations`)).status).toBe(404);
    expect((await call('GET', '/ablations/not-a-uuid')).status).toBe(400);
    const settings = await call('POST', `/question-banks/${bankId}/ablation`, { settings: { topK: 0 } });
    expect(settings.status).toBe(400);
    expect(JSON.stringify(settings.body.message)).toMatch(/topK must be 1 or more/);
    const empty = (await call('POST', '/question-banks', { name: 'nothing to ablate' })).body;
    const refused = await call('POST', `/question-banks/${empty.id}/ablation`, {});
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.message)).toMatch(/has no items to evaluate/);
    expect((await call('GET', `/question-banks/${empty.id}/ablations`)).body.total).toBe(0);
  });

  it('deleting a bank deletes its ablations and their runs', async () => {
    const bank = (await call('POST', '/question-banks', { name: 'short-lived ablation' })).body;
    await call('POST', `/question-banks/${bank.id}/items`, { question: 'who approves production access' });
    const started = (await call('POST', `/question-banks/${bank.id}/ablation`, {})).body;
    expect((await call('DELETE', `/question-banks/${bank.id}`)).status).toBe(204);
    expect((await call('GET', `/ablations/${started.id}`)).status).toBe(404);
    expect((await call('GET', `/eval-runs/${started.rows[0].runId}`)).status).toBe(404);
  });
});
