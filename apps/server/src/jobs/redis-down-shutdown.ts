import { getQueueToken, WorkerHost } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown } from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import type { Queue, Worker } from 'bullmq';
import type Redis from 'ioredis';
import { QueueName } from './queue-name.enum';
import { REDIS_CLIENT } from './redis-client.provider';
import { redisUnavailable } from './redis-deadline';

/** How long the shutdown asks Redis for a PING before it takes it for gone. */
export const SHUTDOWN_REDIS_CHECK_MS = 1_000;

/** The part of an ioredis client (behind BullMQ's wrapper) ending it needs. */
interface EndableClient {
  readonly status: string;
  connect(): Promise<void>;
  disconnect(): void;
}

/**
 * Ends a connection for good, now, failing the commands it holds: a client waiting out its reconnect
 * backoff keeps them (a QUIT too) until Redis is back, and its `disconnect()` alone does not release
 * them. Starting an attempt and dropping it at once ends the client and fails what it held.
 */
function endNow(client: EndableClient): void {
  if (client.status === 'end') return;
  if (client.status === 'reconnecting') client.connect().catch(() => undefined);
  client.disconnect();
}

/**
 * With Redis gone, BullMQ's closes wait for it: a queue's QUIT and a worker's wait for its current jobs
 * hold the shutdown until the process deadline (measured: 16.9 s). Before the app's shutdown hooks run,
 * this asks Redis for a PING; when none comes within SHUTDOWN_REDIS_CHECK_MS, the workers close without
 * waiting for their jobs (they cannot report them anyway; the stalled-job check runs them again later)
 * and the queues' connections are ended, so the hooks that follow finish at once.
 */
@Injectable()
export class RedisDownShutdown implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Redis');

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly discovery: DiscoveryService,
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
  ) {}

  async beforeApplicationShutdown(): Promise<void> {
    const reason = await redisUnavailable(this.redis, SHUTDOWN_REDIS_CHECK_MS);
    if (reason === null) return;
    this.logger.warn(`stopping without Redis (${reason}): workers and queues closed without waiting for it`);
    const workers = this.workers();
    // close(true): no wait for the current jobs; later close() calls (the library's hooks) get this one.
    await Promise.all(workers.map((worker) => worker.close(true).catch(() => undefined)));
    for (const name of Object.values(QueueName)) {
      const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      await queue
        .getBackend()
        .client.then(endNow)
        .catch(() => undefined);
    }
  }

  private workers(): Worker[] {
    const workers: Worker[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!(instance instanceof WorkerHost)) continue;
      try {
        workers.push(instance.worker);
      } catch {
        // never started (workers not in this process)
      }
    }
    return workers;
  }
}
