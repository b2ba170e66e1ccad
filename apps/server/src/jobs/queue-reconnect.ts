import type Redis from 'ioredis';
import { REDIS_READ_DEADLINE_MS, redisUnavailable } from './redis-deadline';

/** The part of a queue's Redis client (BullMQ's wrapper around ioredis) a reconnection needs. */
export interface ReconnectingClient {
  readonly status: string;
  connect(): Promise<void>;
  once(event: 'ready', listener: () => void): unknown;
  removeListener(event: 'ready', listener: () => void): unknown;
}

/**
 * A connection waiting out its reconnect backoff (BullMQ's grows to 20 s) starts its next attempt now.
 * Meant for when Redis is known to answer again: the attempt then succeeds, and the backoff's own
 * timer, when it fires, finds the connection up and does nothing.
 */
export function reconnectNow(client: ReconnectingClient): void {
  if (client.status === 'reconnecting') client.connect().catch(() => undefined);
}

/**
 * Resolves once `client` is ready. When it is not, and the fail-fast client `redis` gets a PING
 * answered (Redis is back), the client reconnects now instead of after its backoff, and this waits
 * for it within `ms`. Throws, saying why, when Redis does not answer or the client is not ready in time.
 */
export async function reconnectOnceRedisAnswers(
  client: ReconnectingClient,
  redis: Redis,
  ms = REDIS_READ_DEADLINE_MS,
): Promise<void> {
  if (client.status === 'ready') return;
  const reason = await redisUnavailable(redis, ms);
  if (reason !== null) throw new Error(`the connection is ${client.status} (${reason})`);
  reconnectNow(client);
  await new Promise<void>((resolve, reject) => {
    if (client.status === 'ready') return resolve();
    const ready = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      client.removeListener('ready', ready);
      reject(new Error(`the connection is still ${client.status} ${ms} ms after Redis answered`));
    }, ms);
    timer.unref();
    client.once('ready', ready);
  });
}
