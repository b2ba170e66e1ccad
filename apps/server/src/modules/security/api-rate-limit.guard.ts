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
import type { Request } from 'express';
import { trimCharsEnd } from '@lumina/rag';
import { Authenticator } from '../auth/authenticator';

/** The routes that cost real work (retrieval, LLM calls) and are rate limited: `METHOD path`. */
export const RATE_LIMITED_ROUTES: ReadonlySet<string> = new Set(['POST /chat', 'POST /rag/search']);

/**
 * Per-client rate limit on the expensive routes (RATE_LIMIT_PER_MINUTE): a client is the API key the
 * request authenticated with (its id), else its IP address (keyless local requests, and requests the
 * auth guard refuses anyway). Over the limit: 429 with a sentence and a Retry-After header.
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
    if (context.getType() !== 'http') return Promise.resolve(true);
    const request = context.switchToHttp().getRequest<Request>();
    const path = trimCharsEnd(request.baseUrl + request.path, '/') || '/';
    return Promise.resolve(!RATE_LIMITED_ROUTES.has(`${request.method} ${path}`));
  }

  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    const http = request as unknown as Request;
    const verdict = await this.authenticator.resolve(http);
    if (verdict.ok && verdict.principal.via === 'key') return `key:${verdict.principal.keyId}`;
    return `ip:${http.ip ?? 'unknown'}`;
  }

  /** One budget per client across the limited routes (the default key is per route). */
  protected override generateKey(_context: ExecutionContext, tracker: string, name: string): string {
    return `${name}:${tracker}`;
  }

  protected override throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const seconds = Math.max(1, Math.ceil(detail.timeToBlockExpire || detail.timeToExpire));
    throw new ThrottlerException(
      `Too many requests: at most ${detail.limit} searches and chat messages per minute per client. ` +
        `Try again in ${seconds} s.`,
    );
  }
}
