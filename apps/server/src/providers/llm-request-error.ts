import { CompletionError } from '@lumina/rag';

/**
 * A failed call to a model endpoint (chat or rerank), with a message fit for a search warning or a
 * log line: what failed, the HTTP status if there was one, and whether trying again could help. It is the
 * ChatModel port's CompletionError, so the answer logic reads its `timeout` flag without knowing the adapter.
 */
export class LlmRequestError extends CompletionError {
  constructor(
    message: string,
    readonly options: {
      status?: number;
      /** 408/409/429/5xx and connection failures: worth another attempt. */
      retryable?: boolean;
      /** The server's Retry-After, in ms, when it sent one. */
      retryAfterMs?: number;
      /** The attempt ran out of time (never retried: the budget is spent). */
      timeout?: boolean;
      cause?: unknown;
    } = {},
  ) {
    super(message, { timeout: options.timeout, cause: options.cause });
    this.name = 'LlmRequestError';
  }

  get status(): number | undefined {
    return this.options.status;
  }

  get retryable(): boolean {
    return this.options.retryable ?? false;
  }
}

/** HTTP statuses worth retrying: request timeout, conflict (lock), rate limit, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Retry-After in ms from `retry-after-ms` or `retry-after` (seconds or an HTTP date); undefined if absent. */
export function retryAfterMs(headers: Headers | undefined): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}
