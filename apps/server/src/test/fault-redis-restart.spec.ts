import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { QueueName } from '../jobs/queue-name.enum';
import { getJson, postJson, sleep, upload, waitForStatus } from './fixtures/ingestion/ingestion-client';
import type { Json } from './helpers/http';
import { freePort } from '../common/net/free-port';
import { RedisServerProcess } from './helpers/redis-server';
import { eventOf, eventOrder, postSse } from './helpers/sse-client';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';

const INDEXED_FIRST = [
  {
    title: 'Failover runbook',
    text:
      'Promote the standby replica with pg_ctl promote. Then repoint the application connection string to ' +
      'the new primary and watch the replication lag dashboard.',
  },
  {
    title: 'Backup policy',
    text:
      'Nightly base backups run at two in the morning. Write-ahead log archiving keeps point-in-time ' +
      'recovery possible for seven days.',
  },
];

const TOPICS = [
  'glacial lakes',
  'desert winds',
  'coastal dunes',
  'alpine meadows',
  'river deltas',
  'salt flats',
];

function essay(topic: string): string {
  return Array.from(
    { length: 24 },
    (_, i) => `Field note ${i + 1} on ${topic} records reading ${i * 7 + 3} taken in season ${i % 4}.`,
  ).join(' ');
}

/** A request's status, body and how long it took. */
async function timed<T>(action: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await action();
  return { result, ms: performance.now() - started };
}

/**
 * The Redis behind BullMQ crashes (SIGKILL) in the middle of an ingestion and comes back on the same
 * port over the same directory. The test runs its own redis-server with an fsynced append-only file:
 * the shared Redis is never touched.
 */
describe('Redis killed and restarted during ingestion', () => {
  const redisDir = mkdtempSync(join(tmpdir(), 'lumina-fault-redis-'));
  const uploadDir = mkdtempSync(join(tmpdir(), 'lumina-fault-redis-uploads-'));
  let redis: RedisServerProcess;
  let server: TestApp;
  let dataSource: DataSource;
  let queue: Queue;

  const documentRows = async (): Promise<{ title: string; status: string }[]> =>
    dataSource.query(`SELECT title, status FROM documents ORDER BY title`);

  beforeAll(async () => {
    redis = new RedisServerProcess(await freePort(), redisDir);
    await redis.start();
    server = await startTestApp(
      testEnv({
        REDIS_URL: redis.url,
        UPLOAD_DIR: uploadDir,
        WORKERS_IN_PROCESS: 'true',
        INGESTION_CONCURRENCY: '1',
        CHUNK_MAX_CHARS: '200',
        CHUNK_OVERLAP_CHARS: '0',
        EMBEDDINGS_BATCH_SIZE: '2',
        WORKER_LOCK_DURATION_MS: '4000',
        WORKER_STALLED_INTERVAL_MS: '2000',
      }),
    );
    dataSource = server.app.get(DataSource);
    queue = server.app.get<Queue>(getQueueToken(QueueName.Ingestion), { strict: false });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    // Redis must answer for the workers to close: bring it back if a failed test left it down.
    if (redis && !redis.running) await redis.start().catch(() => undefined);
    await server?.close();
    await redis?.kill();
    rmSync(redisDir, { recursive: true, force: true });
    rmSync(uploadDir, { recursive: true, force: true });
    // Each close is bounded (closeWithin: 8 s for the app, 8 s for its database); room to spare.
  }, 60_000);

  it('refuses new work with a quick 503 while Redis is down, keeps answering, and finishes every queued job once it is back', async () => {
    // 1. A healthy start: two documents indexed through the queue.
    const first: string[] = [];
    for (const document of INDEXED_FIRST) {
      const { status, body } = await postJson(`${server.baseUrl}/documents/text`, document);
      expect(status).toBe(202);
      first.push(body.id);
    }
    for (const id of first) expect((await waitForStatus(server.baseUrl, id)).status).toBe('indexed');

    // 2. Six more documents queued, and Redis killed while the worker is on the first of them.
    const uploaded = await upload(
      server.baseUrl,
      TOPICS.map((topic) => ({ name: `${topic}.txt`, content: essay(topic) })),
    );
    expect(uploaded.status).toBe(202);
    const queued: string[] = uploaded.body.documents.map((d: Json) => d.id);
    const atKill = await queue.getJobCounts('waiting', 'active', 'completed');
    await redis.kill();
    // Jobs were still waiting in Redis when it died: the restart below must bring them back.
    expect(atKill.waiting).toBeGreaterThan(0);

    // 3. While Redis is down: enqueueing answers 503 at once and leaves nothing behind.
    const text = await timed(() =>
      postJson(`${server.baseUrl}/documents/text`, {
        title: 'Written during the outage',
        text: 'Memory alarms fire at eighty percent of the configured maximum.',
      }),
    );
    expect(text.ms).toBeLessThan(5000);
    expect(text.result.status).toBe(503);
    expect(text.result.body).toEqual({
      statusCode: 503,
      code: 'unavailable',
      error: 'Service Unavailable',
      message: expect.stringMatching(/job queue \(Redis\) is not reachable.*try again/i),
    });
    const multipart = await timed(() =>
      upload(server.baseUrl, [
        { name: 'outage-notes.txt', content: 'Evictions are disabled for the queues.' },
      ]),
    );
    expect(multipart.ms).toBeLessThan(5000);
    expect(multipart.result.status).toBe(503);
    expect(multipart.result.body.message).toMatch(/job queue \(Redis\) is not reachable/i);
    const titles = (await documentRows()).map((row) => row.title);
    expect(titles).not.toContain('Written during the outage');
    expect(titles).not.toContain('outage-notes');
    const leftovers = readdirSync(join(uploadDir, 'documents')).filter(
      (name) => !queued.some((id) => name.startsWith(id)),
    );
    expect({ leftovers, incoming: readdirSync(join(uploadDir, 'incoming')) }).toEqual({
      leftovers: [],
      incoming: [],
    });

    // A failed document sent again is revived: when its job cannot be queued it is failed again, saying why.
    await dataSource.query(`UPDATE documents SET status = 'failed', error = 'parser crashed' WHERE id = $1`, [
      first[1],
    ]);
    const revived = await timed(() => postJson(`${server.baseUrl}/documents/text`, INDEXED_FIRST[1]));
    expect(revived.ms).toBeLessThan(5000);
    expect(revived.result.status).toBe(503);
    const [failedAgain] = await dataSource.query(`SELECT status, error FROM documents WHERE id = $1`, [
      first[1],
    ]);
    expect(failedAgain).toEqual({
      status: 'failed',
      error: expect.stringMatching(
        /^Could not be queued: The job queue \(Redis\) is not reachable.*Send the document again to retry\.$/,
      ),
    });

    // An indexed document sent again needs no job: still accepted as the duplicate it is.
    const again = await postJson(`${server.baseUrl}/documents/text`, INDEXED_FIRST[0]);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ id: first[0], duplicate: true, status: 'indexed' });

    // Reading documents, searching and chatting do not need Redis.
    const detail = await timed(() => getJson(`${server.baseUrl}/documents/${queued[5]}`));
    expect(detail.ms).toBeLessThan(5000);
    expect(detail.result.status).toBe(200);
    expect(detail.result.body.id).toBe(queued[5]);
    const list = await getJson(`${server.baseUrl}/documents`);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(8);

    // Deleting a queued document does not wait for Redis: its job, when it runs, finds it gone and stops.
    const deleted = await timed(() =>
      fetch(`${server.baseUrl}/documents/${queued[5]}`, { method: 'DELETE' }),
    );
    expect(deleted.ms).toBeLessThan(5000);
    expect(deleted.result.status).toBe(200);
    expect(await deleted.result.json()).toEqual({ id: queued[5], deleted: true, cancelledJob: true });

    const search = await timed(() =>
      postJson(`${server.baseUrl}/rag/search`, { query: 'how do I promote the standby replica' }),
    );
    expect(search.ms).toBeLessThan(10_000);
    expect(search.result.status).toBe(200);
    expect(search.result.body.results[0].documentTitle).toBe('Failover runbook');

    const chat = await timed(() =>
      postSse(`${server.baseUrl}/chat`, { message: 'How do I promote the standby?' }),
    );
    expect(chat.ms).toBeLessThan(10_000);
    expect(chat.result.status).toBe(200);
    expect(eventOrder(chat.result.events)).toEqual(['retrieval', 'token', 'citations', 'done']);
    expect(eventOf(chat.result.events, 'done')).toMatchObject({ generator: 'extractive', notFound: false });

    const health = await timed(() => fetch(`${server.baseUrl}/health`));
    expect(health.ms).toBeLessThan(5000);
    expect(health.result.status).toBe(503);
    const report = (await health.result.json()) as Json;
    expect(report).toMatchObject({
      status: 'degraded',
      database: { status: 'up' },
      redis: { status: 'down' },
    });

    // 4. Redis back on the same port and directory: the queued jobs run, each document indexed once.
    await redis.start();
    let healthy = false;
    for (let i = 0; i < 100 && !healthy; i++) {
      healthy = (await fetch(`${server.baseUrl}/health`)).status === 200;
      if (!healthy) await sleep(200);
    }
    expect(healthy).toBe(true);
    for (const id of queued.slice(0, 5)) {
      const document = await waitForStatus(server.baseUrl, id, ['indexed', 'failed', 'cancelled'], 60_000);
      expect({ title: document.title, status: document.status, error: document.error }).toEqual({
        title: document.title,
        status: 'indexed',
        error: null,
      });
    }

    // Read the job again until that copy says it finished: a copy read while the job was still active
    // holds no return value even once the job has completed.
    const deletedJobId = uploaded.body.documents[5].jobId;
    let deletedJob = await queue.getJob(deletedJobId);
    for (let i = 0; i < 100 && !deletedJob?.finishedOn; i++) {
      await sleep(200);
      deletedJob = await queue.getJob(deletedJobId);
    }
    expect({ returned: deletedJob?.returnvalue, failed: deletedJob?.failedReason ?? null }).toMatchObject({
      returned: { outcome: 'cancelled', chunks: 0 },
      failed: null,
    });

    // Enqueueing works again: the documents refused during the outage go through now.
    const revivedNow = await postJson(`${server.baseUrl}/documents/text`, INDEXED_FIRST[1]);
    expect(revivedNow.status).toBe(202);
    expect(revivedNow.body).toMatchObject({ id: first[1], duplicate: true, status: 'queued' });
    expect((await waitForStatus(server.baseUrl, first[1], undefined, 30_000)).status).toBe('indexed');
    const retried = await postJson(`${server.baseUrl}/documents/text`, {
      title: 'Written during the outage',
      text: 'Memory alarms fire at eighty percent of the configured maximum.',
    });
    expect(retried.status).toBe(202);
    expect(retried.body.duplicate).toBe(false);
    expect((await waitForStatus(server.baseUrl, retried.body.id, undefined, 30_000)).status).toBe('indexed');

    // One set of chunks per document, all embedded; the BM25 statistics agree; no job failed.
    expect(
      await dataSource.query(
        `SELECT document_id, ordinal FROM chunks GROUP BY document_id, ordinal HAVING count(*) > 1`,
      ),
    ).toEqual([]);
    const perDocument: { title: string; status: string; chunk_count: number; n: number; embedded: number }[] =
      await dataSource.query(
        `SELECT d.title, d.status, d.chunk_count, count(c.id)::int AS n,
                count(c.id) FILTER (WHERE c.embedding IS NOT NULL)::int AS embedded
         FROM documents d LEFT JOIN chunks c ON c.document_id = d.id
         GROUP BY d.id ORDER BY d.title`,
      );
    expect(perDocument).toHaveLength(8);
    for (const row of perDocument) {
      expect(row.status).toBe('indexed');
      expect(row.n).toBeGreaterThan(0);
      expect(row).toEqual({ ...row, n: row.chunk_count, embedded: row.chunk_count });
    }
    const [bm25] = await dataSource.query(
      `SELECT (SELECT chunk_count FROM bm25_corpus)::int AS kept, (SELECT count(*) FROM chunks)::int AS actual`,
    );
    expect(bm25.kept).toBe(bm25.actual);
    // A document is marked indexed just before its job is marked completed: read until none is active.
    let counts = await queue.getJobCounts('completed', 'failed', 'active', 'waiting', 'delayed');
    for (let i = 0; i < 50 && counts.active > 0; i++) {
      await sleep(100);
      counts = await queue.getJobCounts('completed', 'failed', 'active', 'waiting', 'delayed');
    }
    expect(counts).toEqual({ completed: 9, failed: 0, active: 0, waiting: 0, delayed: 0 });
  }, 120_000);
});
