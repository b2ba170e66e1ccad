import { createHash, timingSafeEqual } from 'node:crypto';
import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import type { CanActivate, ExecutionContext, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { InjectConfig } from '../../config/app-config';
import type { Env } from '../../config/env.schema';

type Verdict = { allowed: true } | { allowed: false; status: 401 | 403; message: string; challenge: boolean };

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * The admin credential, in one place: with ADMIN_API_KEY set, a request must carry it in `x-api-key`
 * or as the password of HTTP basic auth (any user name); without it, only loopback clients that did not
 * come through a proxy are let in. Usable as a route guard and as Express middleware (bull-board).
 */
@Injectable()
export class AdminGuard implements CanActivate, NestMiddleware {
  private readonly keyDigest: Buffer | null;

  constructor(@InjectConfig() env: Env) {
    this.keyDigest = env.ADMIN_API_KEY ? digest(env.ADMIN_API_KEY) : null;
  }

  canActivate(context: ExecutionContext): boolean {
    const verdict = this.check(context.switchToHttp().getRequest<Request>());
    if (verdict.allowed) return true;
    throw verdict.status === 401
      ? new UnauthorizedException(verdict.message)
      : new ForbiddenException(verdict.message);
  }

  use(request: Request, response: Response, next: NextFunction): void {
    const verdict = this.check(request);
    if (verdict.allowed) return next();
    if (verdict.challenge)
      response.setHeader('WWW-Authenticate', 'Basic realm="Lumina admin", charset="UTF-8"');
    response.status(verdict.status).json({
      statusCode: verdict.status,
      error: verdict.status === 401 ? 'Unauthorized' : 'Forbidden',
      message: verdict.message,
    });
  }

  check(request: Request): Verdict {
    if (!this.keyDigest) {
      if (isDirectLoopback(request)) return { allowed: true };
      return {
        allowed: false,
        status: 403,
        challenge: false,
        message: 'The admin pages are only served to this machine until ADMIN_API_KEY is set on the server.',
      };
    }
    const presented = presentedKey(request);
    if (presented === undefined) {
      return {
        allowed: false,
        status: 401,
        challenge: true,
        message: 'The admin key is required: send it in the x-api-key header or as the basic-auth password.',
      };
    }
    if (!timingSafeEqual(digest(presented), this.keyDigest)) {
      return { allowed: false, status: 401, challenge: true, message: 'The admin key is not valid.' };
    }
    return { allowed: true };
  }
}

function presentedKey(request: Request): string | undefined {
  const header = request.headers['x-api-key'];
  const apiKey = Array.isArray(header) ? header[0] : header;
  if (apiKey) return apiKey;
  const authorization = request.headers.authorization ?? '';
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? undefined : decoded.slice(colon + 1) || undefined;
}

/** A loopback peer that did not come through a proxy (a local reverse proxy would make everyone "local"). */
function isDirectLoopback(request: Request): boolean {
  const proxied = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return !proxied && LOOPBACK.has(request.socket.remoteAddress ?? '');
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
