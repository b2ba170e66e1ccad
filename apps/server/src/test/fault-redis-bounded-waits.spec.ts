import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../common/net/free-port';
import { RedisServerProcess } from './helpers/redis-server';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';

/** A request, its status, its text and how long it took (an unanswered one is cut off after 20 s). */
async function timedGet(url: string): Promise<{ status: number | null; text: string; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(20_000) });
    return { status: response.status, text: await response.text(), ms: performance.now() - started };
  } catch (error) {
    return { status: null, text: (error as Error).message, ms: performance.now() - started };
  }
}

/**
 * /metrics and the queue dashboard's API read Redis; during an outage they must answer within a few
 * seconds (partial metrics, or a 503 with a message), not hang for the whole outage. The test runs its
 * own redis-server and stops it; the shared Redis is never touched.
 */
describe('bounded waits on Redis behind /metrics and /admin/queues/api/*', () => {
  const redisDir = mkdtempSync(join(tmpdir(), 'lumina-bounded-redis-'));
  let redis: RedisServerProcess;
  let server: TestApp;

  beforeAll(async () => {
    redis = new RedisServerProcess(await freePort(), redisDir);
    await redis.start();
    server = await startTestApp(testEnv({ REDIS_URL: redis.url, WORKERS_IN_PROCESS: 'true' }));
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (redis && !redis.running) await redis.start().catch(() => undefined);
    await server?.close();
    await redis?.kill();
    rmSync(redisDir, { recursive: true, force: true });
    // Each close is bounded (closeWithin: 8 s for the app, 8 s for its database); room to spare.
  }, 60_000);

  it('answers with the queues while Redis is up, within 5 s without them while it is down, and recovers', async () => {
    const metricsUp = await timedGet(`${server.baseUrl}/metrics`);
    expect(metricsUp.status).toBe(200);
    expect(metricsUp.text).toMatch(/^lumina_redis_up 1$/m);
    expect(metricsUp.text).toMatch(/^lumina_queue_jobs\{queue="ingestion",state="waiting"\} \d+$/m);
    const queuesUp = await timedGet(`${server.baseUrl}/admin/queues/api/queues`);
    expect(queuesUp.status).toBe(200);
    expect(JSON.parse(queuesUp.text).queues.length).toBeGreaterThan(0);

    await redis.kill();
    for (let round = 0; round < 2; round++) {
      // Twice: right after the crash and once the clients are in their reconnect loop.
      const metrics = await timedGet(`${server.baseUrl}/metrics`);
      expect({ round, status: metrics.status, fast: metrics.ms < 5_000 }).toEqual({
        round,
        status: 200,
        fast: true,
      });
      expect(metrics.text).toMatch(/^lumina_redis_up 0$/m);
      expect(metrics.text).not.toMatch(/^lumina_queue_jobs\{/m); // left out, not stale or zero
      expect(metrics.text).toMatch(/^lumina_process_cpu_seconds_total /m); // the rest still answers

      const queues = await timedGet(`${server.baseUrl}/admin/queues/api/queues`);
      expect({ round, status: queues.status, fast: queues.ms < 5_000 }).toEqual({
        round,
        status: 503,
        fast: true,
      });
      expect(JSON.parse(queues.text)).toEqual({
        statusCode: 503,
        code: 'unavailable',
        error: 'Service Unavailable',
        message: expect.stringMatching(/job queue \(Redis\) is not reachable.*dashboard/),
      });
      // The dashboard page itself (no Redis behind it) still loads.
      expect((await timedGet(`${server.baseUrl}/admin/queues`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    }

    await redis.start();
    const deadline = Date.now() + 30_000;
    for (;;) {
      const metrics = await timedGet(`${server.baseUrl}/metrics`);
      const queues = await timedGet(`${server.baseUrl}/admin/queues/api/queues`);
      if (metrics.text.includes('lumina_redis_up 1') && queues.status === 200) {
        expect(metrics.text).toMatch(/^lumina_queue_jobs\{queue="ingestion",state="waiting"\} \d+$/m);
        break;
      }
      if (Date.now() > deadline)
        throw new Error(`not recovered within 30 s: ${queues.status} ${queues.text}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }, 120_000);
});
