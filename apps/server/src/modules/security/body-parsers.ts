import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { json, urlencoded } from 'express';
import { findJsonBodyProblem, findJsonTextProblem, PROTOTYPE_KEYS } from '@lumina/shared';
import { sendError } from '../../common/errors/error-body';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
}

const PROTOTYPE_KEY_ERROR = 'body.prototype.key';
const JSON_SHAPE_ERROR = 'body.json.shape';
/** How deep the form parser (body-parser's qs, strict) nests `a[b][c]` keys before it refuses the body. */
const FORM_DEPTH = 32;

/**
 * JSON and form body parsers limited to `limit` (REQUEST_BODY_LIMIT, e.g. '1mb'), whose failures answer
 * as the rest of the API does — `{ statusCode, code, message, error }` — instead of an HTML error page:
 * malformed JSON, a body that does not decompress as its Content-Encoding says, or a form nested deeper
 * than the parser allows → 400; a body above the limit (decompressed) → 413; an unknown charset or
 * encoding → 415. A JSON body with an object of more than MAX_JSON_OBJECT_KEYS keys, or nested deeper
 * than MAX_JSON_DEPTH (libs/shared), is refused (400, naming the limit) from its raw text, before it is
 * parsed: JSON.parse and class-validator's whitelist check together held the event loop for seconds
 * on 100,000 unknown keys. A parsed body is also refused (400) when it nests too deep, carries a
 * `__proto__` or `constructor` key, or holds a NUL character in a string (PostgreSQL text cannot store
 * one). Form keys are checked before parsing, because the form parser drops `__proto__` silently.
 */
export function limitedBodyParsers(limit: string): RequestHandler[] {
  return [
    json({ limit, verify: refuseWideOrDeepJson }),
    urlencoded({ limit, extended: true, verify: refusePrototypeFormKeys }),
  ].map((parser) => guarded(parser, limit));
}

/**
 * body-parser's verify hook for JSON, run on the raw bytes before JSON.parse: an object with more than
 * MAX_JSON_OBJECT_KEYS keys, or nesting past MAX_JSON_DEPTH, is refused before it costs a parse.
 */
function refuseWideOrDeepJson(_request: unknown, _response: unknown, raw: Buffer): void {
  const problem = findJsonTextProblem(raw);
  if (problem === null) return;
  const error = new Error(problem) as BodyParserError;
  error.type = JSON_SHAPE_ERROR;
  throw error;
}

/** body-parser's verify hook for forms: throws on a `__proto__` or `constructor` key segment. */
function refusePrototypeFormKeys(_request: unknown, _response: unknown, raw: Buffer): void {
  const key = prototypeFormKey(raw.toString('latin1'));
  if (key === null) return;
  const error = new Error(`The request body must not contain a "${key}" key.`) as BodyParserError;
  error.type = PROTOTYPE_KEY_ERROR;
  throw error;
}

/** The first `__proto__`/`constructor` segment among a urlencoded body's keys (a[b][c], a.b), or null. */
export function prototypeFormKey(body: string): string | null {
  for (const pair of body.split('&')) {
    const rawKey = pair.split('=', 1)[0].replace(/\+/g, ' ');
    let key = rawKey;
    try {
      key = decodeURIComponent(rawKey);
    } catch {
      // a malformed escape: the parser keeps it as written, and so do we
    }
    for (const segment of key.split(/[[\].]+/)) {
      if (PROTOTYPE_KEYS.has(segment)) return segment;
    }
  }
  return null;
}

function guarded(parser: RequestHandler, limit: string): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    parser(request, response, (error?: unknown) => {
      if (!error) {
        const problem = findJsonBodyProblem(request.body);
        if (!problem) return next();
        sendError(response, 400, 'Bad Request', problem);
        return;
      }
      const answer = describe(error as BodyParserError, limit);
      if (!answer) return next(error);
      sendError(response, answer.statusCode, answer.error, answer.message);
    });
  };
}

function describe(
  error: BodyParserError,
  limit: string,
): { statusCode: number; error: string; message: string } | null {
  if (isZlibError(error)) {
    return {
      statusCode: 400,
      error: 'Bad Request',
      message: 'The request body is not what its Content-Encoding header says (it does not decompress).',
    };
  }
  switch (error.type) {
    case PROTOTYPE_KEY_ERROR:
    case JSON_SHAPE_ERROR:
      return { statusCode: 400, error: 'Bad Request', message: error.message };
    case 'querystring.parse.rangeError':
      return {
        statusCode: 400,
        error: 'Bad Request',
        message: `The form body is nested more than ${FORM_DEPTH} levels deep.`,
      };
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
      // Any other mistake body-parser recognises as the client's stays a 4xx, never a 500.
      if (error.status !== undefined && error.status >= 400 && error.status < 500) {
        return { statusCode: 400, error: 'Bad Request', message: 'The request body could not be read.' };
      }
      return null;
  }
}

/** A decompression failure (bad gzip/deflate/brotli data), as body-parser passes it on. */
function isZlibError(error: BodyParserError): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^(Z_|ERR_ZLIB|ERR__ERROR_FORMAT|ERR_BROTLI)/.test(code);
}
