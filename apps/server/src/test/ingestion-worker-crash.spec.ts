import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import type { Env } from '../config/env.schema';
import { QueueName } from '../jobs/queue-name.enum';
import type { Json } from './helpers/http';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { filesLeftIn, getJson, sleep, upload } from './fixtures/ingestion/ingestion-client';
import { REPO_ROOT, buildServer, crashTestWorkerEnv, startWorker } from './fixtures/ingestion/worker-process';
import type { WorkerProcess } from './fixtures/ingestion/worker-process';

const TOPICS = ['glacial lakes', 'desert winds', 'coastal dunes', 'alpine meadows'];

function essay(topic: string): string {
  return Array.from(
    { length: 36 },
    (_, i) => `Observation ${i + 1} on ${topic} records measurement ${i * 11 + 5} taken in season ${i % 4}.`,
  ).join(' ');
}

/**
 * The API runs without workers; a separate worker process (the compiled worker.ts) is killed with SIGKILL
 * in the middle of a multi-document ingestion, and a second one takes over once the first one's job lock
 * expires (short lock and stall-check intervals are set for the test).
 */
describe('a worker process killed mid-ingestion', () => {
  const uploadDir = mkdtempSync(join(tmpdir(), 'lumina-ingest-crash-'));
  const chunking = { CHUNK_MAX_CHARS: '200', CHUNK_OVERLAP_CHARS: '0', EMBEDDINGS_BATCH_SIZE: '2' };
  let env: Env;
  let server: TestApp;
  let dataSource: DataSource;
  let queue: Queue;
  let workerEntry: string;
  const workers: WorkerProcess[] = [];

  const spawnWorker = (): WorkerProcess => {
    const worker = startWorker(workerEntry, crashTestWorkerEnv(server, env, uploadDir, chunking));
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    workerEntry = await buildServer(join(REPO_ROOT, 'tmp/ingestion-worker-build'));
    env = testEnv({
      ...chunking,
      UPLOAD_DIR: uploadDir,
      WORKERS_IN_PROCESS: 'false',
      PGLITE_MAX_CONNECTIONS: '16',
      DATABASE_POOL_SIZE: '4',
    });
    server = await startTestApp(env);
    dataSource = server.app.get(DataSource);
    queue = server.app.get<Queue>(getQueueToken(QueueName.Ingestion), { strict: false });
  }, 180_000);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await server?.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('retries the killed job in a new worker: every document indexed once, no duplicate chunks', async () => {
    const first = spawnWorker();
    const { status, body } = await upload(
      server.baseUrl,
      TOPICS.map((topic) => ({ name: `${topic}.txt`, content: essay(topic) })),
    );
    expect(status).toBe(202);
    const ids: string[] = body.documents.map((d: Json) => d.id);

    // Kill the worker while it embeds a document (some vectors computed, none written).
    let victim: Json;
    for (let i = 0; i < 600 && !victim; i++) {
      for (const id of ids) {
        const { body: document } = await getJson(`${server.baseUrl}/documents/${id}`);
        if (document.status === 'embedding' && document.progress?.done > 0) victim = document;
      }
      if (!victim) await sleep(50);
    }
    expect({ victim: Boolean(victim), output: victim ? '' : first.output() }).toEqual({
      victim: true,
      output: '',
    });
    await first.kill();
    expect(first.child.signalCode).toBe('SIGKILL');
    const afterKill = (await getJson(`${server.baseUrl}/documents/${victim.id}`)).body;
    expect(afterKill.status).toBe('embedding');
    expect(await dataSource.query(`SELECT id FROM chunks WHERE document_id = $1`, [victim.id])).toEqual([]);

    const second = spawnWorker();
    const deadline = Date.now() + 90_000;
    let documents: Json[] = [];
    while (Date.now() < deadline) {
      documents = await Promise.all(
        ids.map(async (id) => (await getJson(`${server.baseUrl}/documents/${id}`)).body),
      );
      if (documents.every((document) => ['indexed', 'failed'].includes(document.status))) break;
      await sleep(200);
    }
    expect({ statuses: documents.map((d) => d.status), output: second.output() }).toEqual({
      statuses: ['indexed', 'indexed', 'indexed', 'indexed'],
      output: expect.any(String),
    });
    expect(documents.every((document) => document.error === null)).toBe(true);

    // One set of chunks per document, written in one transaction, all with vectors; no duplicates.
    const duplicates = await dataSource.query(
      `SELECT document_id, ordinal FROM chunks GROUP BY document_id, ordinal HAVING count(*) > 1`,
    );
    expect(duplicates).toEqual([]);
    const perDocument: { document_id: string; n: number; writes: number; embedded: number }[] =
      await dataSource.query(
        `SELECT document_id, count(*)::int AS n, count(DISTINCT created_at)::int AS writes,
              count(*) FILTER (WHERE embedding IS NOT NULL)::int AS embedded
       FROM chunks GROUP BY document_id`,
      );
    expect(perDocument).toHaveLength(4);
    for (const document of documents) {
      const row = perDocument.find((r) => r.document_id === document.id)!;
      expect(row).toEqual({
        document_id: document.id,
        n: document.chunkCount,
        writes: 1,
        embedded: document.chunkCount,
      });
    }
    const [{ documentsTotal }] = await dataSource.query(
      `SELECT count(*)::int AS "documentsTotal" FROM documents`,
    );
    expect(documentsTotal).toBe(4);
    const [bm25] = await dataSource.query(
      `SELECT (SELECT chunk_count FROM bm25_corpus)::int AS kept, (SELECT count(*) FROM chunks)::int AS actual`,
    );
    expect(bm25.kept).toBe(bm25.actual);

    // The killed job was recovered as stalled and completed once; no job failed. A document reads
    // indexed a moment before its job returns, so first wait for the queue to settle (nothing active,
    // waiting or delayed), then count.
    const settled = async () => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const now = await queue.getJobCounts('completed', 'failed', 'active', 'waiting', 'delayed');
        if ((now.active === 0 && now.waiting === 0 && now.delayed === 0) || Date.now() > deadline) return now;
        await sleep(100);
      }
    };
    const counts = await settled();
    const victimJob = (await queue.getJob(body.documents[ids.indexOf(victim.id)].jobId))!;
    expect(await victimJob.getState()).toBe('completed');
    expect(victimJob.attemptsStarted).toBeGreaterThanOrEqual(2);
    expect(victimJob.returnvalue).toMatchObject({
      outcome: 'indexed',
      chunks: afterKill.chunkCount || expect.any(Number),
    });
    expect(counts).toEqual({ completed: 4, failed: 0, active: 0, waiting: 0, delayed: 0 });
    expect(await filesLeftIn(join(uploadDir, 'documents'))).toEqual([]);
  }, 150_000);
});
