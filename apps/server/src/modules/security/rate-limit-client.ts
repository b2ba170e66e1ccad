import type { Request } from 'express';
import type { Authenticator } from '../auth/authenticator';
import type { RateLimitBudget } from './rate-limit-budget';

/** The throttler (ThrottlerModule's name) of each budget. */
export const BUDGET_THROTTLER: Readonly<Record<RateLimitBudget, string>> = {
  expensive: 'default',
  writes: 'writes',
};

/** One window of every budget: a minute. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * Who a request counts against: the API key it authenticated with (its id), else its IP address
 * (keyless local requests, and requests the auth check refuses anyway).
 */
export async function rateLimitClient(authenticator: Authenticator, request: Request): Promise<string> {
  const verdict = await authenticator.resolve(request);
  if (verdict.ok && verdict.principal.via === 'key') return `key:${verdict.principal.keyId}`;
  return `ip:${request.ip ?? 'unknown'}`;
}

/** The storage key of a client's budget: one budget per client across every route it covers. */
export function rateLimitKey(throttler: string, client: string): string {
  return `${throttler}:${client}`;
}

/** The 429's sentence. */
export function rateLimitMessage(budget: RateLimitBudget, limit: number, seconds: number): string {
  const what = budget === 'writes' ? 'changes (POST, PUT, PATCH, DELETE)' : 'searches and chat messages';
  return `Too many requests: at most ${limit} ${what} per minute per client. Try again in ${seconds} s.`;
}
