import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { QueueName } from '../jobs/queue-name.enum';
import { DatabaseProbeRepository } from '../modules/health/repositories/database-probe.repository';
import type { Json } from './helpers/http';
import { eventSchemaNames, responseSchemaName } from './helpers/contract-call';
import { neverSent, newLedger, recordShape } from './helpers/contract-shape';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { parseSse } from './helpers/sse-client';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';

/**
 * Every answer of the documents and health routes is checked against the response schema its OpenAPI
 * operation names, both ways: no field that the schema lacks, and no declared field that no answer ever
 * holds. The first server runs without workers, so an upload stays queued with its job; the second has
 * Redis unreachable, the database probe failing and the local model asked for but missing, so the
 * fields only a degraded report holds are sent too.
 */
describe('documents and health answers match their contract schemas, both ways (embedded PGlite)', () => {
  const modelsDir = mkdtempSync(join(tmpdir(), 'lumina-contract-models-'));
  const uploadDir = mkdtempSync(join(tmpdir(), 'lumina-contract-uploads-'));
  let server: TestApp;
  let degraded: TestApp;
  let document: Json;
  let documentIds: string[];
  const ledger = newLedger();

  /** Calls a route and records its answer; `accept` lists the statuses besides 2xx that carry one. */
  async function call(
    app: TestApp,
    method: string,
    path: string,
    body?: unknown,
    accept: number[] = [],
  ): Promise<Json> {
    const form = body instanceof FormData;
    const response = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers:
        body === undefined
          ? {}
          : form
            ? { 'x-lumina-client': 'test' }
            : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    const json = await response.json();
    if (response.status >= 300 && !accept.includes(response.status))
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    recordShape(ledger, document.components.schemas, responseSchemaName(document, method, path), json);
    return json;
  }

  function files(...parts: { name: string; text: string }[]): FormData {
    const form = new FormData();
    for (const part of parts) form.append('files', new Blob([part.text], { type: 'text/plain' }), part.name);
    return form;
  }

  beforeAll(async () => {
    server = await startTestApp(testEnv({ WORKERS_IN_PROCESS: 'false', UPLOAD_DIR: uploadDir }));
    const dataSource = server.app.get(DataSource);
    documentIds = await seedDocuments(dataSource, null, RUNBOOK_CORPUS);
    await dataSource.query(`UPDATE documents SET external_id = 'runbook' WHERE id = $1`, [documentIds[0]]);
    // A document kept from a deleted Git source: it says where it came from.
    await dataSource.query(`UPDATE documents SET metadata = metadata || $2::jsonb WHERE id = $1`, [
      documentIds[1],
      JSON.stringify({
        source: {
          id: '00000000-0000-4000-8000-000000000009',
          kind: 'git',
          path: 'docs/runbook.md',
          commit: 'a1b2c3',
          url: 'https://git.example.com/handbook/blob/a1b2c3/docs/runbook.md',
        },
      }),
    ]);
    document = await (await fetch(`${server.baseUrl}/api/docs-json`)).json();
    degraded = await startTestApp(
      testEnv({
        REDIS_URL: 'redis://127.0.0.1:1',
        WORKERS_IN_PROCESS: 'false',
        LLM_PROVIDER: 'local',
        MODELS_DIR: modelsDir,
      }),
    );
    jest
      .spyOn(degraded.app.get(DatabaseProbeRepository), 'ping')
      .mockRejectedValue(new Error('connection refused'));
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await degraded?.close();
    await server?.close();
    rmSync(modelsDir, { recursive: true, force: true });
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('documents: upload, text, list, detail with live progress, chunks, re-embed, delete', async () => {
    const note = { name: 'failover-note.txt', text: 'Promote the standby, then repoint the writers.' };
    const uploaded = await call(server, 'POST', '/documents', files(note));
    const again = await call(server, 'POST', '/documents', files(note));
    expect(again.documents[0]).toMatchObject({ id: uploaded.documents[0].id, duplicate: true });
    const text = await call(server, 'POST', '/documents/text', {
      title: 'Backups',
      text: '# Backups\n\nTake a base backup every night.',
      format: 'markdown',
    });

    await call(server, 'GET', '/documents?search=runbook');
    await call(server, 'GET', `/documents?status=queued`);
    await call(server, 'GET', `/documents/${documentIds[0]}`);
    await call(server, 'GET', `/documents/${documentIds[1]}`);
    await call(server, 'GET', '/documents');

    // The upload's job reports a step of its embedding stage: the detail answers it as live progress.
    const { id, jobId } = uploaded.documents[0];
    const queue = server.app.get<Queue>(getQueueToken(QueueName.Ingestion), { strict: false });
    await (await queue.getJob(jobId))!.updateProgress({ stage: 'embedding', done: 2, total: 4, attempt: 1 });
    await server.app.get(DataSource).query(`UPDATE documents SET status = 'embedding' WHERE id = $1`, [id]);
    const working = await call(server, 'GET', `/documents/${id}`);
    expect(working.progress).toEqual({ stage: 'embedding', done: 2, total: 4, attempt: 1 });

    const [{ id: chunkId }] = await server.app
      .get(DataSource)
      .query(`SELECT id FROM chunks WHERE document_id = $1 ORDER BY ordinal DESC LIMIT 1`, [documentIds[0]]);
    await call(server, 'GET', `/documents/${documentIds[0]}/chunks?limit=2`);
    await call(server, 'GET', `/documents/${documentIds[0]}/chunks?chunk=${chunkId}&limit=2`);
    // The runbook's last passage has passages before it, its first has passages after it.
    const last = await call(server, 'GET', `/chunks/${chunkId}?neighbours=5`);
    expect(last.before.length).toBeGreaterThan(0);
    const first = await call(server, 'GET', `/chunks/${last.before[0].id}`);
    expect(first.after.length).toBeGreaterThan(0);

    await call(server, 'POST', '/documents/reembed');
    const removed = await call(server, 'DELETE', `/documents/${text.id}`);
    expect(removed).toMatchObject({ id: text.id, deleted: true });

    expect(ledger.undeclared).toEqual([]);
  }, 120_000);

  it('collections: list, one, create, change, move a document in, delete', async () => {
    const created = await call(server, 'POST', '/collections', {
      name: 'Contract shapes',
      description: 'Documents moved here by the contract test',
    });
    await call(server, 'GET', '/collections?search=contract');
    await call(server, 'GET', `/collections/${created.id}`);
    await call(server, 'PATCH', `/collections/${created.id}`, { name: 'Contract shapes, renamed' });
    const moved = await call(server, 'POST', `/documents/${documentIds[1]}/move`, {
      collectionId: created.id,
    });
    expect(moved).toMatchObject({ id: documentIds[1], collectionId: created.id });
    const deletion = await call(server, 'DELETE', `/collections/${created.id}`);
    expect(deletion).toMatchObject({ id: created.id, deleting: true });

    expect(ledger.undeclared).toEqual([]);
  }, 60_000);

  it('health: live, ready and the report, healthy and degraded', async () => {
    await call(server, 'GET', '/health/live');
    await call(server, 'GET', '/health/ready');
    await call(server, 'GET', '/health');
    // A re-embedding under way after a change of embedder (as database/embedder-switch.ts records it).
    const dataSource = server.app.get(DataSource);
    await dataSource.query(
      `UPDATE embedder_state SET reembed_pending = true, reembed_done = 2, reembed_total = 5`,
    );
    const reembedding = await call(server, 'GET', '/health');
    await dataSource.query(`UPDATE embedder_state SET reembed_pending = false`);
    expect(reembedding.embedder).toMatchObject({ reembedding: { done: 2, total: 5 } });
    const notReady = await call(degraded, 'GET', '/health/ready', undefined, [503]);
    expect(notReady).toMatchObject({ status: 'not-ready', database: { status: 'down' } });
    const report = await call(degraded, 'GET', '/health', undefined, [503]);
    expect(report).toMatchObject({ status: 'degraded', redis: { status: 'down' } });
    expect(report.llm.local).toMatchObject({ state: 'missing', reason: expect.any(String) });

    expect(ledger.undeclared).toEqual([]);
  }, 60_000);

  it('document events: a finished document streams its final state and ends', async () => {
    const names = eventSchemaNames(document, 'GET', '/documents/{id}/events');
    const response = await fetch(`${server.baseUrl}/documents/${documentIds[0]}/events`);
    const { events } = parseSse(await response.text());
    expect(events.map(({ data }) => data.status)).toEqual(['indexed']);
    for (const { event, data } of events)
      recordShape(ledger, document.components.schemas, names[event], data);

    expect(ledger.undeclared).toEqual([]);
  }, 60_000);

  it('declares no field that no answer held', () => {
    expect(neverSent(ledger)).toEqual([]);
  });
});
