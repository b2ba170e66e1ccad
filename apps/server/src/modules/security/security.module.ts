import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { APP_CONFIG } from '../../config/app-config';
import type { Env } from '../../config/env.schema';
import { ApiRateLimitGuard, BUDGET_THROTTLER, requestBudget } from './api-rate-limit.guard';
import { ApiErrorFilter } from '../../common/errors/api-error.filter';

/** Rate limits (search and chat; every other write) and the global error filter (every error body with its code, no internals). */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (env: Env) => ({
        throttlers: [
          {
            name: BUDGET_THROTTLER.expensive,
            ttl: 60_000,
            limit: env.RATE_LIMIT_PER_MINUTE,
            skipIf: (context) => requestBudget(context) !== 'expensive',
          },
          {
            name: BUDGET_THROTTLER.writes,
            ttl: 60_000,
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
  ],
})
export class SecurityModule {}
