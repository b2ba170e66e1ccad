import { Inject } from '@nestjs/common';
import type { OnApplicationShutdown, Provider } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG } from '../config/app-config';
import type { Env } from '../config/env.schema';
import { redisOptionsFromUrl } from './redis-options';

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');
export const InjectRedis = (): ParameterDecorator => Inject(REDIS_CLIENT);

/** A plain Redis client for health checks and metrics; fails fast instead of queueing commands forever. */
export const redisClientProvider: Provider = {
  provide: REDIS_CLIENT,
  inject: [APP_CONFIG],
  useFactory: (env: Env) =>
    new Redis({
      ...redisOptionsFromUrl(env.REDIS_URL),
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: 2_000,
      retryStrategy: (attempt) => Math.min(attempt * 500, 5_000),
    }),
};

export class RedisClientCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    this.redis.disconnect();
  }
}
