import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { freePort } from '../common/net/free-port';
import { QueueName } from '../jobs/queue-name.enum';
import { sleep, upload } from './fixtures/ingestion/ingestion-client';
import { RedisServerProcess } from './helpers/redis-server';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';

const DOCUMENTS = 200;
/** The ingestion workers' concurrency here: at most this many jobs are taken from Redis and not yet started. */
const CONCURRENCY = 2;

/** A short document of its own (one or two chunks), so each is distinct by content hash. */
function note(i: number): { name: string; content: string } {
  return {
    name: `note-${String(i).padStart(3, '0')}.txt`,
    content:
      `Station ${i} logged ${i * 13} millimetres of rain in week ${i % 52}. ` +
      `The gauge at station ${i} was recalibrated by crew ${i % 7} after reading ${i * 3 + 1}.`,
  };
}

/**
 * Redis comes back empty in the middle of an ingestion (FLUSHALL on a redis-server this test runs
 * itself; the shared Redis is never touched): the jobs of documents still queued or in progress are
 * gone. The reconciler must notice and queue them again, so every document ends indexed, once.
 */
describe('Redis flushed mid-ingestion of 200 documents: the reconciler repairs it', () => {
  const redisDir = mkdtempSync(join(tmpdir(), 'lumina-fault-flush-'));
  const uploadDir = mkdtempSync(join(tmpdir(), 'lumina-fault-flush-uploads-'));
  let redis: RedisServerProcess;
  let server: TestApp;
  let dataSource: DataSource;
  let queue: Queue;

  const statusCounts = async (): Promise<Record<string, number>> => {
    const rows: { status: string; n: number }[] = await dataSource.query(
      `SELECT status, count(*)::int AS n FROM documents GROUP BY status`,
    );
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
  };

  beforeAll(async () => {
    redis = new RedisServerProcess(await freePort(), redisDir);
    await redis.start();
    server = await startTestApp(
      testEnv({
        REDIS_URL: redis.url,
        UPLOAD_DIR: uploadDir,
        UPLOAD_MAX_FILES: String(DOCUMENTS),
        WORKERS_IN_PROCESS: 'true',
        INGESTION_CONCURRENCY: String(CONCURRENCY),
        RECONCILE_INTERVAL_MS: '1000',
        WORKER_LOCK_DURATION_MS: '4000',
        WORKER_STALLED_INTERVAL_MS: '2000',
      }),
    );
    dataSource = server.app.get(DataSource);
    queue = server.app.get<Queue>(getQueueToken(QueueName.Ingestion), { strict: false });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    await redis?.kill();
    rmSync(redisDir, { recursive: true, force: true });
    rmSync(uploadDir, { recursive: true, force: true });
    // Each close is bounded (closeWithin: 8 s for the app, 8 s for its database); room to spare.
  }, 60_000);

  it('indexes all 200 after the flush, with no duplicate chunks, and counts each repair in /metrics', async () => {
    const uploaded = await upload(
      server.baseUrl,
      Array.from({ length: DOCUMENTS }, (_, i) => ({ ...note(i), type: 'text/plain' })),
    );
    expect(uploaded.status).toBe(202);
    expect(uploaded.body.documents).toHaveLength(DOCUMENTS);

    // Flush once the workers are under way but most documents still wait for their job.
    const started = Date.now();
    while ((await statusCounts()).indexed === undefined) {
      if (Date.now() - started > 60_000) throw new Error('no document was indexed within 60 s');
      await sleep(50);
    }
    await redis.flushAll();
    const afterFlush = await statusCounts();
    const unfinished = DOCUMENTS - (afterFlush.indexed ?? 0);
    // The flush really stranded documents: queued ones lost their jobs.
    expect(unfinished).toBeGreaterThan(DOCUMENTS / 2);
    const left = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    expect(Object.values(left).reduce((sum, n) => sum + n, 0)).toBeLessThan(unfinished);

    // Every document ends indexed: the reconciler queued the stranded ones again.
    const deadline = Date.now() + 240_000;
    for (;;) {
      const counts = await statusCounts();
      if (counts.indexed === DOCUMENTS) break;
      if (counts.failed || counts.cancelled)
        throw new Error(`documents ended badly: ${JSON.stringify(counts)}`);
      if (Date.now() > deadline) throw new Error(`not all indexed within 240 s: ${JSON.stringify(counts)}`);
      await sleep(250);
    }

    // No duplicate chunks: no (document, ordinal) or (document, text) twice, and every count agrees.
    const [duplicates] = await dataSource.query(`
      SELECT
        (SELECT count(*)::int FROM (SELECT 1 FROM chunks GROUP BY document_id, ordinal HAVING count(*) > 1) d) AS ordinals,
        (SELECT count(*)::int FROM (SELECT 1 FROM chunks GROUP BY document_id, text HAVING count(*) > 1) t) AS texts`);
    expect(duplicates).toEqual({ ordinals: 0, texts: 0 });
    const mismatched = await dataSource.query(`
      SELECT d.id FROM documents d LEFT JOIN chunks c ON c.document_id = d.id
      GROUP BY d.id, d.chunk_count HAVING count(c.id) <> d.chunk_count OR count(c.id) = 0`);
    expect(mismatched).toEqual([]);

    // Each repair was counted: at least the documents that were still queued when Redis lost them, but
    // for those whose job a worker had already taken before the flush and not yet started (at most one
    // per unit of concurrency): that worker indexes them, with no repair.
    const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
    const repairs = [
      ...metrics.matchAll(/^lumina_reconciler_requeued_documents_total\{status="(\w+)"\} (\d+)$/gm),
    ];
    const repaired = repairs.reduce((sum, match) => sum + Number(match[2]), 0);
    expect(repaired).toBeGreaterThanOrEqual((afterFlush.queued ?? 0) - CONCURRENCY);
    expect(repaired).toBeLessThanOrEqual(unfinished);
  }, 330_000);

  it('repairs at boot: documents left queued by a server that stopped are indexed by the next one at its start', async () => {
    // A server without workers accepts the documents (their jobs wait in Redis), then Redis loses them
    // and the server stops. The next server reconciles only at boot here (the interval is a day).
    const dataDir = mkdtempSync(join(tmpdir(), 'lumina-fault-flush-boot-'));
    const shared = {
      REDIS_URL: redis.url,
      UPLOAD_DIR: join(dataDir, 'uploads'),
      PGLITE_DATA_DIR: join(dataDir, 'pglite'),
      QUEUE_PREFIX: `boot-${Date.now()}`,
    };
    try {
      const first = await startTestApp(testEnv({ ...shared, WORKERS_IN_PROCESS: 'false' }));
      const accepted = await upload(
        first.baseUrl,
        Array.from({ length: 5 }, (_, i) => ({ ...note(1000 + i), type: 'text/plain' })),
      );
      expect(accepted.status).toBe(202);
      await first.close();
      await redis.flushAll();
      await sleep(5_500); // older than the grace a fresh upload gets

      const second = await startTestApp(
        testEnv({ ...shared, WORKERS_IN_PROCESS: 'true', RECONCILE_INTERVAL_MS: '86400000' }),
      );
      try {
        const source = second.app.get(DataSource);
        const deadline = Date.now() + 120_000;
        for (;;) {
          const [row] = await source.query(
            `SELECT count(*) FILTER (WHERE status = 'indexed')::int AS indexed, count(*)::int AS total FROM documents`,
          );
          if (row.indexed === 5 && row.total === 5) break;
          if (Date.now() > deadline)
            throw new Error(`not indexed after the boot pass: ${JSON.stringify(row)}`);
          await sleep(250);
        }
        const metrics = await (await fetch(`${second.baseUrl}/metrics`)).text();
        expect(metrics).toMatch(/^lumina_reconciler_requeued_documents_total\{status="queued"\} 5$/m);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
