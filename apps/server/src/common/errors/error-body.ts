import { errorCodeForStatus } from '@lumina/shared';
import type { ApiErrorBody, ServerErrorCode } from '@lumina/shared';
import type { Response } from 'express';

/** The API's error body: `{ statusCode, code, message, error }` (code from the status unless given). */
export function errorBody(
  statusCode: number,
  error: string,
  message: string | string[],
  code: ServerErrorCode = errorCodeForStatus(statusCode),
): ApiErrorBody {
  return { statusCode, code, error, message };
}

/** Answers an Express request with an error body (middleware that runs outside Nest's filters). */
export function sendError(response: Response, statusCode: number, error: string, message: string): void {
  response.status(statusCode).json(errorBody(statusCode, error, message));
}
