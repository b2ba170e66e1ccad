import { Catch, Logger } from '@nestjs/common';
import type { ArgumentsHost, ExceptionFilter } from '@nestjs/common';
import type { OpenAiErrorBody } from '@lumina/shared';
import type { Response } from 'express';
import { httpErrorAnswer } from '../../common/errors/api-error.filter';

/** OpenAI's error types by status, which its clients map to their exception classes. */
export function openAiErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 409) return 'conflict_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/** An error body as OpenAI clients read it: `{ error: { message, type, param, code } }`. */
export function openAiError(status: number, message: string, code: string | null): OpenAiErrorBody {
  return { error: { message, type: openAiErrorType(status), param: null, code } };
}

/**
 * The /v1 routes answer failures in OpenAI's shape, so the `openai` client (and every tool built on it)
 * shows the reason: the same status and sentence the rest of the API gives, in `error.message`.
 */
@Catch()
export class OpenAiErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('UnexpectedError');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const answer = httpErrorAnswer(exception);
    if (answer.unexpected) {
      this.logger.error(
        exception instanceof Error ? (exception.stack ?? exception.message) : String(exception),
      );
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    const message = answer.body.message;
    const text = Array.isArray(message) ? message.join('; ') : String(message ?? answer.body.error ?? '');
    const code = typeof answer.body.code === 'string' ? answer.body.code : null;
    response.status(answer.status).json(openAiError(answer.status, text, code));
  }
}
