import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../common/net/free-port';
import { QUEUE_UNAVAILABLE_MESSAGE } from '../modules/ingestion/ingestion-queue.service';
import { postJson, sleep, upload, waitForStatus } from './fixtures/ingestion/ingestion-client';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';
import { RedisServerProcess } from './helpers/redis-server';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

/**
 * BullMQ's connections back off up to 20 s between reconnection attempts. An outage long enough for
 * that (25 s), then Redis back: the first upload after /health/ready says 200 must be accepted, not
 * refused until the queue's next attempt. Runs its own redis-server; the shared Redis is never touched.
 */
describe('uploads accepted as soon as Redis is back', () => {
  const redisDir = mkdtempSync(join(tmpdir(), 'lumina-recovery-redis-'));
  const uploadDir = mkdtempSync(join(tmpdir(), 'lumina-recovery-uploads-'));
  let redis: RedisServerProcess;
  let server: TestApp;

  beforeAll(async () => {
    redis = new RedisServerProcess(await freePort(), redisDir);
    await redis.start();
    server = await startTestApp(
      testEnv({ REDIS_URL: redis.url, UPLOAD_DIR: uploadDir, WORKERS_IN_PROCESS: 'true' }),
    );
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (redis && !redis.running) await redis.start().catch(() => undefined);
    await server?.close();
    await redis?.kill();
    rmSync(redisDir, { recursive: true, force: true });
    rmSync(uploadDir, { recursive: true, force: true });
  }, 60_000);

  it('refuses uploads with the documented 503 while Redis is down, and accepts the first one after /health/ready says 200', async () => {
    await redis.kill();
    const refused = await upload(server.baseUrl, [
      { name: 'outage.txt', content: 'Written while Redis was down.' },
    ]);
    expect(refused).toEqual({
      status: 503,
      body: {
        statusCode: 503,
        code: 'unavailable',
        error: 'Service Unavailable',
        message: QUEUE_UNAVAILABLE_MESSAGE,
      },
    });
    // Long enough for the queue's connection to back off to its longest waits (1 s, ..., 3 s, 8 s, 20 s).
    await sleep(25_000);
    const stillRefused = await postJson(`${server.baseUrl}/documents/text`, {
      title: 'During the outage',
      text: 'Still nothing can be queued.',
    });
    expect(stillRefused.status).toBe(503);

    await redis.start();
    const readiness: number[] = [];
    for (let i = 0; i < 150 && readiness.at(-1) !== 200; i++) {
      if (i > 0) await sleep(200);
      readiness.push((await fetch(`${server.baseUrl}/health/ready`)).status);
    }
    expect(readiness.at(-1)).toBe(200);
    // Ready says 200: the very next upload is accepted.
    const accepted = await upload(server.baseUrl, [
      { name: 'back.txt', content: 'Written once Redis was back.' },
    ]);
    expect({ status: accepted.status, message: accepted.body.message }).toEqual({
      status: 202,
      message: undefined,
    });
    const id: string = accepted.body.documents[0].id;
    expect((await waitForStatus(server.baseUrl, id, undefined, 60_000)).status).toBe('indexed');
  }, 150_000);
});
