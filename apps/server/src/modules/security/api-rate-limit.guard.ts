import { Injectable } from '@nestjs/common';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerException,
  ThrottlerGuard,
} from '@nestjs/throttler';
import type { ThrottlerLimitDetail, ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { matchedRoute } from '../../common/net/matched-route';
import { Authenticator } from '../auth/authenticator';
import { rateLimitBudget } from './rate-limit-budget';
import type { RateLimitBudget } from './rate-limit-budget';
import { BUDGET_THROTTLER, rateLimitClient, rateLimitKey, rateLimitMessage } from './rate-limit-client';

export { BUDGET_THROTTLER } from './rate-limit-client';

/** The budget a request counts against, from its method and the template of the route it matched. */
export function requestBudget(context: ExecutionContext): RateLimitBudget | null {
  if (context.getType() !== 'http') return null;
  const request = context.switchToHttp().getRequest<Request>();
  return rateLimitBudget(request.method, matchedRoute(request));
}

/**
 * Per-client rate limits (rate-limit-budget.ts): search and chat on RATE_LIMIT_PER_MINUTE, every other
 * mutating route on RATE_LIMIT_WRITES_PER_MINUTE. A client is the API key the request authenticated with
 * (its id), else its IP address (keyless local requests, and requests the auth guard refuses anyway).
 * Routes are told apart by the matched route's template, so `/Rag/Search/` is `/rag/search`. Over a
 * limit: 429 with a sentence and a Retry-After header.
 */
@Injectable()
export class ApiRateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly authenticator: Authenticator,
  ) {
    super(options, storage, reflector);
  }

  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(requestBudget(context) === null);
  }

  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    return rateLimitClient(this.authenticator, request as unknown as Request);
  }

  /** One budget per client across the limited routes (the default key is per route). */
  protected override generateKey(_context: ExecutionContext, tracker: string, name: string): string {
    return rateLimitKey(name, tracker);
  }

  protected override throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const seconds = Math.max(1, Math.ceil(detail.timeToBlockExpire || detail.timeToExpire));
    // The throttler names its header after a non-default throttler (Retry-After-writes); clients read this one.
    context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(seconds));
    const budget = detail.key.startsWith(`${BUDGET_THROTTLER.writes}:`) ? 'writes' : 'expensive';
    throw new ThrottlerException(rateLimitMessage(budget, detail.limit, seconds));
  }
}
