import { Catch, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { errorCodeForStatus, isServerErrorCode } from '@lumina/shared';
import { DomainError } from './domain-errors';
import { errorBody } from './error-body';

export const UNEXPECTED_ERROR_MESSAGE = 'Something went wrong on the server.';

/** The status and body the API answers an exception with. */
export interface HttpErrorAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * The answer to a thrown value: a domain error's status with `{ statusCode, code, message, error }`
 * (and its details); an HTTP exception (validation, guards, the throttler, an unknown route) as Nest
 * writes it, with `code` added; anything else (a bug, a driver error) a 500 with a fixed sentence.
 */
export function httpErrorAnswer(exception: unknown): HttpErrorAnswer & { unexpected: boolean } {
  if (exception instanceof DomainError) {
    return {
      status: exception.status,
      body: {
        ...errorBody(exception.status, exception.statusText, exception.messages, exception.code),
        ...exception.details,
      },
      unexpected: false,
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    const body: Record<string, unknown> =
      typeof response === 'object' && response !== null
        ? { ...(response as Record<string, unknown>) }
        : { statusCode: status, message: response };
    const code = isServerErrorCode(body.code) ? body.code : errorCodeForStatus(status);
    return { status, body: { statusCode: status, code, ...body }, unexpected: false };
  }
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: {
      ...errorBody(HttpStatus.INTERNAL_SERVER_ERROR, 'Internal Server Error', UNEXPECTED_ERROR_MESSAGE),
    },
    unexpected: true,
  };
}

/**
 * The one place HTTP answers to failures are written. Services throw domain errors, Nest's own layers
 * (validation, guards, the throttler, routing) HTTP exceptions; every body carries a `code` from the
 * shared error contract. Anything unexpected becomes a 500 with a fixed sentence while the log keeps
 * the detail: no stack trace, SQL or file path ever reaches the client. A response that already
 * started (a Server-Sent Events stream) is only ended.
 */
@Catch()
export class ApiErrorFilter extends BaseExceptionFilter {
  private readonly logger = new Logger('UnexpectedError');

  override catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') {
      super.catch(exception, host);
      return;
    }
    const answer = httpErrorAnswer(exception);
    if (answer.unexpected) {
      this.logger.error(
        exception instanceof Error ? (exception.stack ?? exception.message) : String(exception),
      );
    }
    const adapter = this.httpAdapterHost?.httpAdapter;
    const response: unknown = host.getArgByIndex(1);
    if (!adapter) return;
    if (adapter.isHeadersSent(response)) {
      adapter.end(response);
      return;
    }
    adapter.reply(response, answer.body, answer.status);
  }
}
