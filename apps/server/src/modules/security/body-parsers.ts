import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { json, urlencoded } from 'express';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
}

/** Deeper JSON than this is refused: no API shape comes near it, and deep input exhausts recursive code. */
export const MAX_JSON_DEPTH = 32;

/**
 * JSON and form body parsers limited to `limit` (REQUEST_BODY_LIMIT, e.g. '1mb'), whose failures answer
 * as the rest of the API does — `{ statusCode, message, error }` — instead of an HTML error page:
 * malformed JSON → 400, a body above the limit → 413, an unsupported charset or encoding → 415.
 * A parsed body is also refused (400) when it nests deeper than MAX_JSON_DEPTH, carries a `__proto__`
 * key, or holds a NUL character in a string (PostgreSQL text cannot store one).
 */
export function limitedBodyParsers(limit: string): RequestHandler[] {
  return [json({ limit }), urlencoded({ limit, extended: true })].map((parser) => guarded(parser, limit));
}

function guarded(parser: RequestHandler, limit: string): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    parser(request, response, (error?: unknown) => {
      if (!error) {
        const problem = findBodyProblem(request.body);
        if (!problem) return next();
        response.status(400).json({ statusCode: 400, error: 'Bad Request', message: problem });
        return;
      }
      const answer = describe(error as BodyParserError, limit);
      if (!answer) return next(error);
      response.status(answer.statusCode).json(answer);
    });
  };
}

function describe(
  error: BodyParserError,
  limit: string,
): { statusCode: number; error: string; message: string } | null {
  switch (error.type) {
    case 'entity.parse.failed':
      return {
        statusCode: 400,
        error: 'Bad Request',
        message: 'The request body is not valid JSON.',
      };
    case 'entity.too.large':
      return {
        statusCode: 413,
        error: 'Payload Too Large',
        message: `The request body is larger than the limit of ${limit} (REQUEST_BODY_LIMIT).`,
      };
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return {
        statusCode: 415,
        error: 'Unsupported Media Type',
        message: 'The request body must be UTF-8 JSON without a content encoding.',
      };
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
    case 'parameters.too.many':
      return { statusCode: 400, error: 'Bad Request', message: 'The request body could not be read.' };
    default:
      return null;
  }
}

/** What makes a parsed body unacceptable whatever the route, or null. Iterative: deep input cannot overflow it. */
export function findBodyProblem(body: unknown): string | null {
  const stack: { value: unknown; depth: number }[] = [{ value: body, depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value, depth } = item;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return 'Text in the request must not contain NUL characters (\\u0000).';
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`;
    for (const key of Object.keys(value)) {
      if (key === '__proto__') return 'The request body must not contain a "__proto__" key.';
      if (key.includes('\u0000')) return 'Text in the request must not contain NUL characters (\\u0000).';
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1 });
    }
  }
  return null;
}
