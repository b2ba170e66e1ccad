import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Request } from 'express';
import { InjectConfig } from '../../config/app-config';
import type { Env } from '../../config/env.schema';
import { Authenticator } from '../auth/authenticator';
import {
  BUDGET_THROTTLER,
  RATE_LIMIT_WINDOW_MS,
  rateLimitClient,
  rateLimitKey,
  rateLimitMessage,
} from './rate-limit-client';

/** A request refused by a budget: the sentence and the seconds to wait (Retry-After). */
export interface OverBudget {
  message: string;
  retryAfterSeconds: number;
}

/**
 * The writes budget (RATE_LIMIT_WRITES_PER_MINUTE) for routes served outside Nest's routing, where the
 * rate-limit guard does not run (bull-board's POST/PUT/DELETE under /admin/queues/api). Same storage,
 * same key as the guard: one budget per client for every write, whoever serves it.
 */
@Injectable()
export class WriteBudget {
  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    @InjectConfig() private readonly env: Env,
    private readonly authenticator: Authenticator,
  ) {}

  /** Counts one write by the request's client: null within the budget, else why not. */
  async consume(request: Request): Promise<OverBudget | null> {
    const limit = this.env.RATE_LIMIT_WRITES_PER_MINUTE;
    const client = await rateLimitClient(this.authenticator, request);
    const { isBlocked, timeToBlockExpire, timeToExpire } = await this.storage.increment(
      rateLimitKey(BUDGET_THROTTLER.writes, client),
      RATE_LIMIT_WINDOW_MS,
      limit,
      RATE_LIMIT_WINDOW_MS,
      BUDGET_THROTTLER.writes,
    );
    if (!isBlocked) return null;
    const seconds = Math.max(1, Math.ceil(timeToBlockExpire || timeToExpire));
    return { message: rateLimitMessage('writes', limit, seconds), retryAfterSeconds: seconds };
  }
}
