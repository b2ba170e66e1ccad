import { errorCodeForStatus, isServerErrorCode } from '@lumina/shared';
import type { ApiErrorBody, ApiErrorCode } from '@lumina/shared';
import type { ApiOperation } from './api-operations';

/** An API failure: `message` is a sentence for a person, `detail` keeps what the server said. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly detail: string,
    readonly status?: number,
    /** A 404 for the route itself: this server has no such endpoint (yet). */
    readonly missingRoute = false,
  ) {
    super(message);
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

const MAX_DETAIL_CHARS = 300;

/**
 * The code of an error status when the body names none (servers before error codes): the shared
 * mapping, except that a status below 500 it does not know is unexpected rather than a server error.
 */
export function classifyStatus(status: number): ApiErrorCode {
  const code = errorCodeForStatus(status);
  return code === 'server_error' && status < 500 ? 'unexpected' : code;
}

/**
 * Reads `{ statusCode, code, message, error }` from whatever the server sent; tolerates anything else
 * (a code this web app does not know is left out).
 */
export function readErrorBody(body: unknown): Partial<ApiErrorBody> {
  if (typeof body !== 'object' || body === null) return {};
  const record = body as Record<string, unknown>;
  const result: Partial<ApiErrorBody> = {};
  if (typeof record.statusCode === 'number') result.statusCode = record.statusCode;
  if (isServerErrorCode(record.code)) result.code = record.code;
  if (typeof record.message === 'string') result.message = record.message;
  else if (Array.isArray(record.message)) {
    result.message = record.message.filter((item): item is string => typeof item === 'string');
  }
  if (typeof record.error === 'string') result.error = record.error;
  return result;
}

/** The server's own words, joined and trimmed, without a closing full stop. */
export function serverMessage(body: Partial<ApiErrorBody>): string {
  const parts = (Array.isArray(body.message) ? body.message : [body.message ?? ''])
    .map((part) => part.trim().replace(/[.;]+$/, ''))
    .filter((part) => part.length > 0);
  const joined = parts.join('; ');
  return joined.length > MAX_DETAIL_CHARS ? `${joined.slice(0, MAX_DETAIL_CHARS - 1)}…` : joined;
}

/** Nest answers an unknown route with "Cannot POST /path". */
function isMissingRoute(message: string): boolean {
  return /^Cannot (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \//.test(message);
}

/** A server message worth showing: not just the status text repeated ("Service Unavailable"). */
function meaningful(message: string, body: Partial<ApiErrorBody>): string {
  if (!message) return '';
  return body.error && message.toLowerCase() === body.error.toLowerCase() ? '' : message;
}

function withPeriod(sentence: string): string {
  return /[.!?…]$/.test(sentence) ? sentence : `${sentence}.`;
}

export interface HttpFailure {
  status: number;
  body: unknown;
  operation: ApiOperation;
}

/**
 * Turns an error status and body into an ApiError whose message a person understands. The body's
 * `code` says what went wrong when it names a known one; otherwise the status does.
 */
export function httpError({ status, body, operation }: HttpFailure): ApiError {
  const parsed = readErrorBody(body);
  const said = serverMessage(parsed);
  const detail = `${operation.method} ${operation.path} → ${status}${said ? `: ${said}` : ''}`;
  const code = parsed.code ?? classifyStatus(status);
  const extra = meaningful(said, parsed);
  let sentence: string;
  const missingRoute = code === 'not_found' && (!said || isMissingRoute(said));

  switch (code) {
    case 'not_found':
      sentence =
        !said || isMissingRoute(said)
          ? `${operation.feature} isn't available on this server yet (${operation.method} ${operation.path} ` +
            `returned 404). Update the Lumina server, or check that the web app points to the right API address.`
          : withPeriod(said);
      break;
    case 'invalid_request':
      sentence = extra
        ? `${operation.invalidPrefix ?? "The server didn't accept the request"}: ${withPeriod(extra)}`
        : `The server didn't accept the request. ${operation.invalidHint ?? 'Check what you entered and try again.'}`;
      break;
    case 'unauthorized':
      sentence = `The server needs an API key to ${operation.action}. Sign in with your key under "Sign in" at the top of the page${
        extra ? ` (${extra})` : ''
      }.`;
      break;
    case 'forbidden':
      sentence = `The server refused to ${operation.action}${extra ? `: ${withPeriod(extra)}` : ": this web app isn't allowed to."}`;
      break;
    case 'timeout':
      sentence = `The server gave up before it could ${operation.action}. Try again${
        operation.slowHint ? `; ${lowerFirst(operation.slowHint)}` : '.'
      }`;
      break;
    case 'too_large':
      sentence = extra
        ? `The server refused it as too large: ${withPeriod(extra)}`
        : `The request is too large for the server to ${operation.action}. Try something smaller.`;
      break;
    case 'unsupported':
      sentence = extra
        ? `The server can't read that kind of file: ${withPeriod(extra)}`
        : "The server can't read that kind of file.";
      break;
    case 'conflict':
      sentence = extra
        ? withPeriod(extra)
        : `The server couldn't ${operation.action}: it conflicts with what is already there.`;
      break;
    case 'rate_limited':
      sentence = 'The server is receiving too many requests right now. Wait a moment and try again.';
      break;
    case 'unavailable':
      sentence = `The server is running but couldn't ${operation.action} right now${
        extra ? ` (${extra})` : ''
      }. Try again in a moment.`;
      break;
    case 'server_error':
      sentence = `The server ran into an unexpected problem while trying to ${operation.action}. The details are in the server log.`;
      break;
    default:
      sentence = `The server answered with an unexpected error (${status}${extra ? `: ${extra}` : ''}).`;
  }
  return new ApiError(code, sentence, detail, status, missingRoute);
}

/** fetch() itself failed: the server is down, the address is wrong, or CORS blocked the answer. */
export function unreachableError(operation: ApiOperation, baseUrl: string, cause: unknown): ApiError {
  return new ApiError(
    'unreachable',
    `Couldn't reach the Lumina server at ${baseUrl}. Check that it is running and that the web app points ` +
      'to the right API address.',
    `${operation.method} ${operation.path}: ${cause instanceof Error ? cause.message : String(cause)}`,
  );
}

export function timeoutError(operation: ApiOperation): ApiError {
  const seconds = Math.round(operation.timeoutMs / 1000);
  return new ApiError(
    'timeout',
    `The server took longer than ${seconds} seconds to ${operation.action}.` +
      (operation.slowHint ? ` ${operation.slowHint}` : ' Try again in a moment.'),
    `${operation.method} ${operation.path}: no answer after ${operation.timeoutMs} ms`,
  );
}

export function abortedError(operation: ApiOperation): ApiError {
  return new ApiError(
    'aborted',
    'The request was cancelled.',
    `${operation.method} ${operation.path}: aborted`,
  );
}

export function invalidResponseError(operation: ApiOperation, status: number, reason: string): ApiError {
  return new ApiError(
    'invalid_response',
    "The server sent an answer the web app couldn't read. The server and the web app may be different versions.",
    `${operation.method} ${operation.path} → ${status}: ${reason}`,
    status,
  );
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
