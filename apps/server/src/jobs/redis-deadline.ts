import type Redis from 'ioredis';

/** How long a request behind /metrics or the queue dashboard waits for Redis before it answers without it. */
export const REDIS_READ_DEADLINE_MS = 2_000;

export class RedisDeadlineError extends Error {
  constructor(what: string, ms: number) {
    super(`Redis did not answer ${what} within ${ms} ms`);
    this.name = 'RedisDeadlineError';
  }
}

/** `work`, or a RedisDeadlineError after `ms` (the work itself is left to finish or fail on its own). */
export async function withinRedisDeadline<T>(
  work: Promise<T>,
  what: string,
  ms = REDIS_READ_DEADLINE_MS,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new RedisDeadlineError(what, ms)), ms);
    timer.unref();
  });
  work.catch(() => undefined); // a late failure must not become an unhandled rejection
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Null when the fail-fast client (REDIS_CLIENT) answers PING within the deadline, else why not. Cheap
 * enough to ask before every read that would otherwise queue on a reconnecting connection.
 */
export async function redisUnavailable(redis: Redis, ms = REDIS_READ_DEADLINE_MS): Promise<string | null> {
  try {
    await withinRedisDeadline(
      (async () => {
        if (redis.status === 'wait' || redis.status === 'end') await redis.connect();
        await redis.ping();
      })(),
      'PING',
      ms,
    );
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
