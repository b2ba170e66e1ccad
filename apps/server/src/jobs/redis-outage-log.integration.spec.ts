import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import { freePort } from '../common/net/free-port';
import { closeWithin } from '../test/helpers/bounded-close';
import { RedisServerProcess } from '../test/helpers/redis-server';
import { QueueName } from './queue-name.enum';
import { RedisOutageLog } from './redis-outage-log';

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function refused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
}

/** The events of a worker's two connections in the order a restarted Redis can deliver them. */
describe('RedisOutageLog, two connections of one owner', () => {
  it("takes the blocking connection's late refusal after the main one is back for catching up, not a new outage", async () => {
    const main = { status: 'connecting' };
    const backend = Object.assign(new EventEmitter(), { client: Promise.resolve(main) });
    const owner = { closing: undefined, getBackend: () => backend };
    const logger = { warn: jest.fn(), log: jest.fn(), error: jest.fn() };
    const outages = new RedisOutageLog('ingestion worker', logger);

    outages.record(owner, refused());
    outages.record(owner, refused());
    await backend.client;
    expect(logger.warn).toHaveBeenCalledTimes(1);

    // The main connection is ready; the blocking one's attempt, started before Redis listened, is refused.
    main.status = 'ready';
    backend.emit('ready');
    outages.record(owner, refused());
    backend.emit('ready');
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.log.mock.calls).toEqual([['ingestion worker: Redis connection back']]);

    // Redis goes away again: the main connection reconnects, and that is the second outage.
    main.status = 'connecting';
    outages.record(owner, refused());
    outages.record(owner, refused());
    expect(logger.warn).toHaveBeenCalledTimes(2);
    main.status = 'ready';
    backend.emit('ready');
    expect(logger.log).toHaveBeenCalledTimes(2);
  });
});

/**
 * A real BullMQ worker whose private redis-server is down at start, comes up, dies and comes back: its
 * reconnect errors reach the log once per outage and never stderr.
 */
describe('RedisOutageLog', () => {
  const redisDir = mkdtempSync(join(tmpdir(), 'lumina-worker-outage-'));
  let redis: RedisServerProcess;
  let worker: Worker | undefined;

  afterAll(async () => {
    // A worker closes cleanly only when its Redis answers.
    if (redis && !redis.running) await redis.start().catch(() => undefined);
    // This test is about the log, not about closing. After the two outages BullMQ's retry strategy waits up
    // to 20 s between reconnects (min(e^attempts, 20 s)), so a close() whose QUIT sits in the offline queue
    // waits that long, and a disconnect() during the wait never sees ioredis's 'end' (the socket is
    // already gone): both are bounded, so this hook ends well within its timeout.
    if (worker) {
      const started = worker;
      await closeWithin('the outage test worker', () => started.close(true), {
        force: () => started.disconnect(),
        timeoutMs: 5_000,
      });
    }
    await redis?.kill();
    rmSync(redisDir, { recursive: true, force: true });
  }, 30_000);

  it('warns once per outage, says when Redis is back, and prints nothing to stderr', async () => {
    redis = new RedisServerProcess(await freePort(), redisDir);
    const logger = { warn: jest.fn(), log: jest.fn(), error: jest.fn() };
    const stderr = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const outages = new RedisOutageLog(`${QueueName.Ingestion} worker`, logger);
    let errors = 0;

    const started = new Worker(`outage-${process.pid}`, async () => undefined, {
      connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null },
      prefix: `test-outage-${process.pid}-${Math.random().toString(36).slice(2, 10)}`,
    });
    worker = started;
    // What @OnWorkerEvent('error') does for a processor.
    started.on('error', (error) => {
      errors++;
      outages.record(started, error);
    });

    // Down from the start: several failed reconnects, one warning.
    await until(() => errors >= 3, 10_000, 'reconnect errors');
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0][0]).toMatch(
      /^ingestion worker: Redis connection lost \(.*ECONNREFUSED.*\); retrying$/,
    );
    expect(logger.log).not.toHaveBeenCalled();

    await redis.start();
    await until(() => logger.log.mock.calls.length > 0, 10_000, 'the recovery line');
    expect(logger.log.mock.calls).toEqual([['ingestion worker: Redis connection back']]);

    // A second outage is a second warning; the way back a second line.
    const before = errors;
    await redis.kill();
    await until(() => errors >= before + 3, 10_000, 'reconnect errors of the second outage');
    expect(logger.warn).toHaveBeenCalledTimes(2);
    await redis.start();
    await until(() => logger.log.mock.calls.length > 1, 10_000, 'the second recovery line');
    expect(logger.log).toHaveBeenCalledTimes(2);

    // An error that is not about the connection is logged as it comes.
    outages.record(started, new Error('Missing lock for job 7. moveToFinished'));
    expect(logger.error).toHaveBeenCalledWith(
      'ingestion worker: Missing lock for job 7. moveToFinished',
      expect.any(String),
    );
    expect(logger.warn).toHaveBeenCalledTimes(2);

    expect(stderr).not.toHaveBeenCalled();
    stderr.mockRestore();
  }, 60_000);
});
