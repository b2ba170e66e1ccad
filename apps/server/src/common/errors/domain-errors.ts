import type { ServerErrorCode } from '@lumina/shared';

/**
 * A failure a service states in the domain's words, never as an HTTP exception: the API's error filter
 * answers it with its status and `{ statusCode, code, message, error }`, a worker decides from
 * `permanent` whether retrying the job can help.
 */
export abstract class DomainError extends Error {
  abstract readonly code: ServerErrorCode;
  /** The HTTP status it answers with, and that status's text (the body's `error`). */
  abstract readonly status: number;
  abstract readonly statusText: string;
  /** True when trying again cannot succeed: the input, or what it names, is wrong or gone. */
  readonly permanent: boolean = true;
  /** What the client reads: one sentence, or one per problem (as validation answers). */
  readonly messages: string | string[];
  /** More fields of the error body (e.g. which files an upload refused). */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(message: string | string[], details: Record<string, unknown> = {}) {
    super(Array.isArray(message) ? message.join('; ') : message);
    this.name = new.target.name;
    this.messages = message;
    this.details = details;
  }
}

/** The request is malformed or asks for something impossible (400). */
export class InvalidRequestError extends DomainError {
  readonly code = 'invalid_request';
  readonly status = 400;
  readonly statusText = 'Bad Request';
}

/** The request is well formed but its content cannot be used (422), e.g. an unreadable upload. */
export class UnprocessableError extends DomainError {
  readonly code = 'invalid_request';
  readonly status = 422;
  readonly statusText = 'Unprocessable Entity';
}

/** The caller may see what the request names but not do this to it (403). */
export class ForbiddenError extends DomainError {
  readonly code = 'forbidden';
  readonly status = 403;
  readonly statusText = 'Forbidden';
}

/** What the request names does not exist, or is not the caller's to see (404). */
export class NotFoundError extends DomainError {
  readonly code = 'not_found';
  readonly status = 404;
  readonly statusText = 'Not Found';
}

/** The request contradicts the current state (409), e.g. revoking the last admin key. */
export class ConflictError extends DomainError {
  readonly code = 'conflict';
  readonly status = 409;
  readonly statusText = 'Conflict';
}

/** The request is larger than a configured limit (413). */
export class TooLargeError extends DomainError {
  readonly code = 'too_large';
  readonly status = 413;
  readonly statusText = 'Payload Too Large';
}

/** The request's format or encoding is not one the server reads (415). */
export class UnsupportedError extends DomainError {
  readonly code = 'unsupported';
  readonly status = 415;
  readonly statusText = 'Unsupported Media Type';
}

/** Something the request needs is down or not configured (503); it may work later. */
export class UnavailableError extends DomainError {
  readonly code = 'unavailable';
  readonly status = 503;
  readonly statusText = 'Service Unavailable';
  override readonly permanent = false;
}
