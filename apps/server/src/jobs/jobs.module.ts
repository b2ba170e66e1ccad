import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { Env } from '../config/env.schema';
import { JobHandlerRegistry } from './job-handler-registry';
import { QueueName } from './queue-name.enum';
import { QueueOutageWatcher } from './queue-outage-watcher';
import { REDIS_CLIENT, RedisClientCloser, redisClientProvider } from './redis-client.provider';
import { RedisDownShutdown } from './redis-down-shutdown';

/**
 * BullMQ root connection, the queues, a Redis client for health checks, the job handlers' boot check,
 * and a shutdown that does not wait for a Redis that is gone.
 */
@Global()
@Module({})
export class JobsModule {
  static forRoot(env: Env): DynamicModule {
    const queues = BullModule.registerQueue(...Object.values(QueueName).map((name) => ({ name })));
    return {
      module: JobsModule,
      imports: [
        BullModule.forRoot({
          connection: { url: env.REDIS_URL, maxRetriesPerRequest: null },
          prefix: env.QUEUE_PREFIX,
        }),
        queues,
        DiscoveryModule,
      ],
      providers: [
        redisClientProvider,
        RedisClientCloser,
        QueueOutageWatcher,
        RedisDownShutdown,
        JobHandlerRegistry,
      ],
      exports: [queues, REDIS_CLIENT, JobHandlerRegistry],
    };
  }
}
