import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { QueueName } from '../jobs/queue-name.enum';
import { readJson } from './helpers/http';
import { seedDocuments } from './helpers/seed-documents';
import { ScriptedOpenAiServer } from '@lumina/testing-llm';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { getJson, sleep, upload, waitForStatus } from './fixtures/ingestion/ingestion-client';
import { PLAIN_TEXT } from './fixtures/ingestion/sample-documents';

const ADMIN_KEY = 'test-admin-key-0123456789';
const admin = { 'x-api-key': ADMIN_KEY };

describe('ingestion operations: retries, re-embedding, metrics, queue dashboard', () => {
  const uploadDir = mkdtempSync(join(tmpdir(), 'lumina-ingest-ops-'));
  let openai: ScriptedOpenAiServer;
  let server: TestApp;
  let dataSource: DataSource;
  let queue: Queue;

  const embeddedTexts = () =>
    openai.requestsTo('/v1/embeddings').flatMap((request) => request.body.input as string[]);

  beforeAll(async () => {
    openai = await ScriptedOpenAiServer.start();
    server = await startTestApp(
      testEnv({
        UPLOAD_DIR: uploadDir,
        EMBEDDINGS_PROVIDER: 'openai',
        EMBEDDINGS_BASE_URL: openai.baseUrl,
        EMBEDDINGS_MODEL: 'scripted-embedder',
        EMBEDDINGS_DIMENSIONS: '8',
        EMBEDDINGS_TIMEOUT_MS: '2000',
        EMBEDDINGS_BATCH_SIZE: '2',
        ADMIN_API_KEY: ADMIN_KEY,
      }),
    );
    dataSource = server.app.get(DataSource);
    queue = server.app.get<Queue>(getQueueToken(QueueName.Ingestion), { strict: false });
  });

  afterAll(async () => {
    await server.close();
    await openai.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('keeps a document queued with the reason while a transient failure is retried, then indexes it', async () => {
    let failures = 0;
    openai.on((request) => {
      if (!request.path.endsWith('/embeddings') || failures >= 3) return null;
      failures++;
      return { status: 503, json: { error: { message: 'embedding service warming up' } } };
    });
    const { body } = await upload(server.baseUrl, [{ name: 'retry.txt', content: PLAIN_TEXT }], admin);
    const id = body.documents[0].id;
    let retrying;
    for (let i = 0; i < 200 && !retrying; i++) {
      const { body: document } = await getJson(`${server.baseUrl}/documents/${id}`, admin);
      if (document.error || document.status === 'indexed') retrying = document;
      else await sleep(25);
    }
    expect(retrying).toMatchObject({
      status: 'queued',
      error: expect.stringMatching(/^Attempt 1 of 5 failed \(.*\); retrying shortly\.$/),
    });
    const indexed = await waitForStatus(server.baseUrl, id, ['indexed', 'failed'], 20_000, admin);
    expect(indexed).toMatchObject({ status: 'indexed', error: null });
    expect(failures).toBe(3); // the first attempt (with the client's own two retries) failed, the second worked
    const jobId = body.documents[0].jobId;
    for (let i = 0; i < 100 && (await queue.getJob(jobId))?.finishedOn === undefined; i++) await sleep(50);
    const job = (await queue.getJob(jobId))!;
    expect(await job.getState()).toBe('completed');
    expect(job.attemptsStarted).toBe(2); // one failed run, one that completed
  });

  it('re-embeds only the chunks that lack a vector of the current model', async () => {
    const [bare] = await seedDocuments(dataSource, null, [
      { title: 'Unembedded', text: 'Lichens are partnerships of fungi and algae. They grow on bare rock.' },
    ]);
    await dataSource.query(
      `UPDATE chunks SET embedding = '[1,0,0,0,0,0,0,0]', embedding_model = 'openai:old-model'
       WHERE document_id = (SELECT id FROM documents WHERE title = 'retry')`,
    );
    const pending: { index_text: string }[] = await dataSource.query(
      `SELECT index_text FROM chunks WHERE embedding IS NULL OR embedding_model IS DISTINCT FROM 'openai:scripted-embedder'`,
    );
    expect(pending.length).toBeGreaterThanOrEqual(2);
    openai.reset();

    const response = await fetch(`${server.baseUrl}/documents/reembed`, { method: 'POST', headers: admin });
    expect(response.status).toBe(202);
    const answer = await readJson(response);
    expect(answer).toMatchObject({
      model: 'openai:scripted-embedder',
      pendingChunks: pending.length,
      alreadyQueued: false,
    });

    for (let i = 0; i < 100 && (await queue.getJob(answer.jobId))?.finishedOn === undefined; i++)
      await sleep(100);
    const job = (await queue.getJob(answer.jobId))!;
    expect(await job.getState()).toBe('completed');
    expect(job.returnvalue).toMatchObject({ model: 'openai:scripted-embedder', chunks: pending.length });
    // The retry document's text was embedded before (cache); only the seeded chunks reached the model.
    const bareTexts: { index_text: string }[] = await dataSource.query(
      `SELECT index_text FROM chunks WHERE document_id = $1`,
      [bare],
    );
    expect(embeddedTexts().sort()).toEqual(bareTexts.map((row) => row.index_text).sort());
    const [{ left }] = await dataSource.query(
      `SELECT count(*)::int AS left FROM chunks WHERE embedding IS NULL OR embedding_model <> 'openai:scripted-embedder'`,
    );
    expect(left).toBe(0);

    const again = await readJson(
      await fetch(`${server.baseUrl}/documents/reembed`, { method: 'POST', headers: admin }),
    );
    expect(again).toEqual({
      model: 'openai:scripted-embedder',
      pendingChunks: 0,
      jobId: null,
      alreadyQueued: false,
    });
  });

  it('serves Prometheus metrics: queue depth, job durations, ingestion throughput', async () => {
    const response = await fetch(`${server.baseUrl}/metrics`, { headers: admin });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain;.*version=0\.0\.4/);
    const text = await response.text();
    for (const state of ['waiting', 'active', 'delayed', 'failed', 'completed']) {
      expect(text).toContain(`lumina_queue_jobs{queue="ingestion",state="${state}"}`);
    }
    expect(text).toMatch(/lumina_queue_jobs\{queue="ingestion",state="completed"\} [1-9]/);
    expect(text).toMatch(
      /lumina_job_duration_seconds_count\{queue="ingestion",name="ingest-document",outcome="completed"\} [1-9]/,
    );
    expect(text).toMatch(/lumina_ingested_documents_total\{outcome="indexed"\} [1-9]/);
    expect(text).toMatch(/lumina_ingested_chunks_total [1-9]/);
    expect(text).toMatch(/lumina_reembedded_chunks_total [1-9]/);
    expect(text).toContain('lumina_process_cpu_seconds_total');
  });

  it('guards the queue dashboard with the admin key (x-api-key or basic auth)', async () => {
    const anonymous = await fetch(`${server.baseUrl}/admin/queues`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm="Lumina admin"/);
    expect((await readJson(anonymous)).message).toMatch(/API key is required/);

    const wrong = await fetch(`${server.baseUrl}/admin/queues`, { headers: { 'x-api-key': 'nope' } });
    expect(wrong.status).toBe(401);

    const page = await fetch(`${server.baseUrl}/admin/queues`, { headers: { 'x-api-key': ADMIN_KEY } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);

    const basic = `Basic ${Buffer.from(`admin:${ADMIN_KEY}`).toString('base64')}`;
    const api = await fetch(`${server.baseUrl}/admin/queues/api/queues`, {
      headers: { authorization: basic },
    });
    expect(api.status).toBe(200);
    const queues = (await readJson(api)).queues.map((q: { name: string }) => q.name);
    expect(queues).toEqual(expect.arrayContaining(['ingestion']));
    const apiAnonymous = await fetch(`${server.baseUrl}/admin/queues/api/queues`);
    expect(apiAnonymous.status).toBe(401);
  });
});
