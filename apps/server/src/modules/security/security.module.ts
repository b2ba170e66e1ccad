import { Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { APP_CONFIG } from '../../config/app-config';
import type { Env } from '../../config/env.schema';
import { ApiRateLimitGuard, requestBudget } from './api-rate-limit.guard';
import { BUDGET_THROTTLER, RATE_LIMIT_WINDOW_MS } from './rate-limit-client';
import { WriteBudget } from './write-budget';
import { ApiErrorFilter } from '../../common/errors/api-error.filter';

/**
 * Rate limits (search and chat; every other write, WriteBudget for the writes served outside Nest's
 * routing) and the global error filter (every error body with its code, no internals).
 */
@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (env: Env) => ({
        throttlers: [
          {
            name: BUDGET_THROTTLER.expensive,
            ttl: RATE_LIMIT_WINDOW_MS,
            limit: env.RATE_LIMIT_PER_MINUTE,
            skipIf: (context) => requestBudget(context) !== 'expensive',
          },
          {
            name: BUDGET_THROTTLER.writes,
            ttl: RATE_LIMIT_WINDOW_MS,
            limit: env.RATE_LIMIT_WRITES_PER_MINUTE,
            skipIf: (context) => requestBudget(context) !== 'writes',
          },
        ],
      }),
    }),
  ],
  providers: [
    { provide: APP_GUARD, useClass: ApiRateLimitGuard },
    { provide: APP_FILTER, useClass: ApiErrorFilter },
    WriteBudget,
  ],
  exports: [WriteBudget],
})
export class SecurityModule {}
