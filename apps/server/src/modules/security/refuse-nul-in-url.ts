import type { NextFunction, Request, Response } from 'express';
import { sendError } from '../../common/errors/error-body';
import { prototypeFormKey } from './body-parsers';

/**
 * Addresses no route can take, refused with 400 before any route: a NUL character (%00) in the path or
 * query string (PostgreSQL text cannot hold one), or a `__proto__`/`constructor` query key, which the
 * query parser and the DTOs would otherwise drop or trip over silently.
 */
export function refuseNulInUrl(request: Request, response: Response, next: NextFunction): void {
  const url = request.originalUrl;
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const key = query ? prototypeFormKey(query) : null;
  if (!/%00/i.test(url) && key === null) return next();
  sendError(
    response,
    400,
    'Bad Request',
    key === null
      ? 'The address must not contain NUL characters (%00).'
      : `The query string must not contain a "${key}" key.`,
  );
}
