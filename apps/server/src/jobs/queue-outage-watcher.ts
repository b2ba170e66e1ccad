import { getQueueToken } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import type Redis from 'ioredis';
import { QueueName } from './queue-name.enum';
import { reconnectNow } from './queue-reconnect';
import { REDIS_CLIENT } from './redis-client.provider';
import { RedisOutageLog } from './redis-outage-log';

/**
 * Every queue's connection and the health-check client, watched: while Redis is away each logs one
 * warning and one line when it is back, instead of a stack trace on stderr per reconnection attempt.
 * When the health-check client (short backoff) is ready again, the queues' connections, which may be
 * waiting out a backoff of up to 20 s, reconnect at once: uploads are accepted as soon as
 * /health/ready says 200.
 */
@Injectable()
export class QueueOutageWatcher implements OnModuleInit {
  private readonly logger = new Logger('Redis');

  constructor(
    private readonly moduleRef: ModuleRef,
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
  ) {}

  onModuleInit(): void {
    const queues = Object.values(QueueName).map((name) => {
      const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      const outages = new RedisOutageLog(`${name} queue`, this.logger);
      queue.on('error', (error: Error) => outages.record(queue, error));
      return queue;
    });
    const health = new RedisOutageLog('health check client', this.logger);
    this.redis.on('error', (error: Error) => health.error(error));
    this.redis.on('ready', () => {
      health.ready();
      for (const queue of queues) {
        queue
          .getBackend()
          .client.then(reconnectNow)
          .catch(() => undefined);
      }
    });
  }
}
