import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { ExecutionContext } from '@nestjs/common';
import { ThrottlerException, ThrottlerGuard } from '@nestjs/throttler';
import type { ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Request } from 'express';

/** The routes that cost real work (retrieval, LLM calls) and are rate limited: `METHOD path`. */
export const RATE_LIMITED_ROUTES: ReadonlySet<string> = new Set(['POST /chat', 'POST /rag/search']);

/**
 * Per-client rate limit on the expensive routes (RATE_LIMIT_PER_MINUTE): a client is its x-api-key
 * (hashed, never kept in clear) when it sends one, else its IP address. Over the limit: 429 with a
 * sentence and a Retry-After header.
 */
@Injectable()
export class ApiRateLimitGuard extends ThrottlerGuard {
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return Promise.resolve(true);
    const request = context.switchToHttp().getRequest<Request>();
    const path = (request.baseUrl + request.path).replace(/\/+$/, '') || '/';
    return Promise.resolve(!RATE_LIMITED_ROUTES.has(`${request.method} ${path}`));
  }

  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    const headers = (request as unknown as Request).headers;
    const header = headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (key) return Promise.resolve(`key:${createHash('sha256').update(key, 'utf8').digest('hex')}`);
    return Promise.resolve(`ip:${(request as unknown as Request).ip ?? 'unknown'}`);
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
