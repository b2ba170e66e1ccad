import { LlmRequestError } from './llm-request-error';

export interface BackoffPolicy {
  /** Attempts after the first one. */
  maxRetries: number;
  /** Delay before the first retry; doubled for each further one (with up to 25 % jitter off). */
  baseDelayMs: number;
  /** Ceiling of any delay, including one the server asked for with Retry-After. */
  maxDelayMs: number;
}

export const DEFAULT_BACKOFF: Readonly<BackoffPolicy> = Object.freeze({
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8000,
});

/** The delay before retry number `retry` (0-based): exponential, jittered, capped; Retry-After wins. */
export function backoffDelayMs(
  policy: BackoffPolicy,
  retry: number,
  serverAskedMs?: number,
  random = Math.random,
): number {
  if (serverAskedMs !== undefined) return Math.min(serverAskedMs, policy.maxDelayMs);
  const exponential = Math.min(policy.baseDelayMs * 2 ** retry, policy.maxDelayMs);
  return exponential * (1 - random() * 0.25);
}

/**
 * Run `attempt` until it succeeds, retrying an LlmRequestError marked retryable with exponential
 * backoff. The waits are abortable: an aborted `signal` ends the loop at once with its reason.
 */
export async function retryWithBackoff<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: BackoffPolicy,
  signal?: AbortSignal,
  onRetry?: (error: LlmRequestError, delayMs: number, retry: number) => void,
): Promise<T> {
  for (let retry = 0; ; retry++) {
    throwIfAborted(signal);
    try {
      return await attempt(retry);
    } catch (error) {
      if (!(error instanceof LlmRequestError) || !error.retryable || retry >= policy.maxRetries) throw error;
      throwIfAborted(signal);
      const delay = backoffDelayMs(policy, retry, error.options.retryAfterMs);
      onRetry?.(error, delay, retry + 1);
      await abortableSleep(delay, signal);
    }
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

/** The reason an AbortSignal carries, as an Error. */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error
    ? reason
    : new Error(`the request was aborted${reason ? `: ${String(reason)}` : ''}`);
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
