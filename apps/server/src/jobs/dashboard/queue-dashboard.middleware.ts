import { Injectable } from '@nestjs/common';
import type { NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type Redis from 'ioredis';
import { sendError } from '../../common/errors/error-body';
import { AdminMiddleware } from '../../modules/auth/admin.middleware';
import { InjectRedis } from '../redis-client.provider';
import { redisUnavailable } from '../redis-deadline';

/** The most a dashboard API call may take: past it (Redis went away mid-call) the answer is a 503. */
export const DASHBOARD_API_DEADLINE_MS = 5_000;

export const DASHBOARD_REDIS_DOWN_MESSAGE =
  'The job queue (Redis) is not reachable, so the dashboard cannot read the queues right now. Try again in a moment.';

/**
 * In front of bull-board: the admin check, then, for its JSON API (/admin/queues/api/*), bounded
 * waits. bull-board's Redis calls would otherwise queue on a reconnecting connection for the whole
 * outage, so a call first needs a PING answered within 2 s, and any call still unanswered after
 * DASHBOARD_API_DEADLINE_MS is answered 503 with a message.
 */
@Injectable()
export class QueueDashboardMiddleware implements NestMiddleware {
  constructor(
    private readonly admin: AdminMiddleware,
    @InjectRedis() private readonly redis: Redis,
  ) {}

  use(request: Request, response: Response, next: NextFunction): void {
    this.admin.use(request, response, (error?: unknown) => {
      if (error) return next(error);
      if (!/^\/admin\/queues\/api(\/|$)/.test(request.originalUrl.split('?')[0])) return next();
      void this.bounded(response, next);
    });
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
