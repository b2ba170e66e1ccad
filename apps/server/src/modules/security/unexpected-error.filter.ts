import { Catch, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';

export const UNEXPECTED_ERROR_MESSAGE = 'Something went wrong on the server.';

/**
 * The last line of defence: HTTP exceptions keep Nest's usual `{ statusCode, message, error }` answer;
 * anything else (a bug, a driver error) becomes a 500 with a fixed sentence, while the log keeps the
 * detail. No stack trace, SQL or file path ever reaches the client. A response that already started
 * (a Server-Sent Events stream) is only ended.
 */
@Catch()
export class UnexpectedErrorFilter extends BaseExceptionFilter {
  private readonly logger = new Logger('UnexpectedError');

  override catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http' || exception instanceof HttpException) {
      super.catch(exception, host);
      return;
    }
    const adapter = this.httpAdapterHost?.httpAdapter;
    const response: unknown = host.getArgByIndex(1);
    this.logger.error(
      exception instanceof Error ? (exception.stack ?? exception.message) : String(exception),
    );
    if (!adapter) return;
    if (adapter.isHeadersSent(response)) {
      adapter.end(response);
      return;
    }
    adapter.reply(
      response,
      {
        statusCode: HttpStatus.INTERNAL_SERVER_ERROR,
        message: UNEXPECTED_ERROR_MESSAGE,
        error: 'Internal Server Error',
      },
      HttpStatus.INTERNAL_SERVER_ERROR,
    );
  }
}
