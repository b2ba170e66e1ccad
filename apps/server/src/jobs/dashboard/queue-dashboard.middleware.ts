import { Injectable } from '@nestjs/common';
import type { NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type Redis from 'ioredis';
import { sendError } from '../../common/errors/error-body';
import { AdminMiddleware } from '../../modules/auth/admin.middleware';
import { WriteBudget } from '../../modules/security/write-budget';
import { InjectRedis } from '../redis-client.provider';
import { redisUnavailable } from '../redis-deadline';

/** The most a dashboard API call may take: past it (Redis went away mid-call) the answer is a 503. */
export const DASHBOARD_API_DEADLINE_MS = 5_000;

export const DASHBOARD_REDIS_DOWN_MESSAGE =
  'The job queue (Redis) is not reachable, so the dashboard cannot read the queues right now. Try again in a moment.';

/** bull-board's writes (retry, clean, pause, promote, ...): its API's POST, PUT and DELETE routes. */
const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * In front of bull-board: the admin check; for its writes, the writes rate limit
 * (RATE_LIMIT_WRITES_PER_MINUTE, the same budget as the API's other writes: bull-board is served outside
 * Nest's routing, so the rate-limit guard does not see it); then, for its JSON API
 * (/admin/queues/api/*), bounded waits. bull-board's Redis calls would otherwise queue on a reconnecting connection for the whole
 * outage, so a call first needs a PING answered within 2 s, and any call still unanswered after
 * DASHBOARD_API_DEADLINE_MS is answered 503 with a message.
 */
@Injectable()
export class QueueDashboardMiddleware implements NestMiddleware {
  constructor(
    private readonly admin: AdminMiddleware,
    private readonly writes: WriteBudget,
    @InjectRedis() private readonly redis: Redis,
  ) {}

  use(request: Request, response: Response, next: NextFunction): void {
    this.admin.use(request, response, (error?: unknown) => {
      if (error) return next(error);
      if (!WRITE_METHODS.has(request.method.toUpperCase())) return this.served(request, response, next);
      this.writes.consume(request).then((over) => {
        if (over === null) return this.served(request, response, next);
        response.setHeader('Retry-After', String(over.retryAfterSeconds));
        sendError(response, 429, 'Too Many Requests', over.message);
      }, next);
    });
  }

  private served(request: Request, response: Response, next: NextFunction): void {
    if (!/^\/admin\/queues\/api(\/|$)/i.test(request.originalUrl.split('?')[0])) return next();
    void this.bounded(response, next);
  }

  private async bounded(response: Response, next: NextFunction): Promise<void> {
    const reason = await redisUnavailable(this.redis);
    if (reason !== null) return unavailable(response, DASHBOARD_REDIS_DOWN_MESSAGE);
    const timer = setTimeout(
      () =>
        unavailable(
          response,
          `The job queue (Redis) did not answer within ${DASHBOARD_API_DEADLINE_MS / 1000} s. Try again in a moment.`,
        ),
      DASHBOARD_API_DEADLINE_MS,
    );
    timer.unref();
    response.once('close', () => clearTimeout(timer));
    next();
  }
}

function unavailable(response: Response, message: string): void {
  if (response.headersSent) return;
  sendError(response, 503, 'Service Unavailable', message);
}
