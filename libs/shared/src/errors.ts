/**
 * The error contract of the HTTP API, shared by the server (which writes it) and the web app (which
 * reads it). Every 4xx/5xx body is `{ statusCode, code, message, error }`: `code` is one of
 * SERVER_ERROR_CODES, `message` a sentence (or list of sentences) for a person, `error` the status text.
 */
export const SERVER_ERROR_CODES = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'too_large',
  'unsupported',
  'rate_limited',
  'unavailable',
  'timeout',
  'server_error',
] as const;

/** A code the server puts in an error body. */
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number];

/** What can go wrong from a client's side without the server saying so. */
export const CLIENT_ERROR_CODES = ['unreachable', 'aborted', 'invalid_response', 'unexpected'] as const;

export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

/** Every failure a client of the API can meet, in a small closed set a UI can branch on. */
export type ApiErrorCode = ServerErrorCode | ClientErrorCode;

/** The body of every error response. */
export interface ApiErrorBody {
  statusCode: number;
  code: ServerErrorCode;
  message: string | string[];
  error?: string;
}

/** The code that goes with an HTTP status when nothing more specific is known. */
export function errorCodeForStatus(status: number): ServerErrorCode {
  if (status === 400 || status === 422) return 'invalid_request';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 408) return 'timeout';
  if (status === 409) return 'conflict';
  if (status === 413) return 'too_large';
  if (status === 415) return 'unsupported';
  if (status === 429) return 'rate_limited';
  if (status === 502 || status === 503 || status === 504) return 'unavailable';
  return 'server_error';
}

export function isServerErrorCode(value: unknown): value is ServerErrorCode {
  return typeof value === 'string' && (SERVER_ERROR_CODES as readonly string[]).includes(value);
}
