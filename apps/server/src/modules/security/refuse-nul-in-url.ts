import type { NextFunction, Request, Response } from 'express';

/** A NUL character (%00) in the path or query string: 400 before any route (PostgreSQL text cannot hold one). */
export function refuseNulInUrl(request: Request, response: Response, next: NextFunction): void {
  if (!/%00/i.test(request.originalUrl)) return next();
  response.status(400).json({
    statusCode: 400,
    error: 'Bad Request',
    message: 'The address must not contain NUL characters (%00).',
  });
}
