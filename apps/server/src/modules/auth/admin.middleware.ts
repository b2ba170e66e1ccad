import { Injectable } from '@nestjs/common';
import type { NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { sendError } from '../../common/errors/error-body';
import { Authenticator, forbiddenMessage } from './authenticator';

/**
 * The admin check as Express middleware, for pages served outside Nest's routing (bull-board at
 * /admin/queues). Asks browsers for basic auth (any user name, the key as password) on 401.
 */
@Injectable()
export class AdminMiddleware implements NestMiddleware {
  constructor(private readonly authenticator: Authenticator) {}

  use(request: Request, response: Response, next: NextFunction): void {
    this.authenticator.resolve(request).then(
      (verdict) => {
        if (verdict.ok && verdict.principal.role === 'admin') return next();
        const status = verdict.ok ? 403 : 401;
        if (!verdict.ok)
          response.setHeader('WWW-Authenticate', 'Basic realm="Lumina admin", charset="UTF-8"');
        sendError(
          response,
          status,
          verdict.ok ? 'Forbidden' : 'Unauthorized',
          verdict.ok ? forbiddenMessage(verdict.principal, ['admin']) : verdict.message,
        );
      },
      (error: unknown) => next(error),
    );
  }
}
