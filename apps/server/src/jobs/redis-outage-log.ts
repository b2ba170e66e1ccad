import type { Logger } from '@nestjs/common';
import { isNotConnectionError } from 'bullmq';

/** Socket errors ioredis reports while it reconnects (refused, reset, timed out, host not resolvable). */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** What the log needs of a BullMQ Worker, Queue or QueueEvents. */
export interface RedisClientOwner {
  closing: Promise<void> | undefined;
  /** The Redis backend: its events come from every connection it owns; `client` is the main one. */
  getBackend(): {
    on(event: 'ready', listener: () => void): unknown;
    readonly client?: Promise<{ readonly status: string }>;
  };
}

/**
 * The 'error' events of a Redis connection, logged. BullMQ and ioredis retry a lost connection by
 * themselves and report every failed attempt; with no listener they print each one to stderr. Here an
 * outage is one warning, and one line when the connection is back; other errors are logged as they come.
 */
export class RedisOutageLog {
  private down = false;
  private watchingReady = false;
  private mainClient: { readonly status: string } | undefined;

  constructor(
    private readonly label: string,
    private readonly logger: Pick<Logger, 'warn' | 'log' | 'error'>,
  ) {}

  /**
   * An error of a BullMQ worker, queue or queue-event reader (a processor's `@OnWorkerEvent('error')`).
   * A worker has two connections (its main one and the blocking one) and reports the errors and the
   * 'ready' of both as its own: when Redis comes back, the blocking connection's last refused attempt can
   * arrive after the main one is ready again. While the main connection is ready, such an error is a
   * connection catching up, not a new outage.
   */
  record(owner: RedisClientOwner, error: Error): void {
    if (!this.watchingReady) {
      this.watchingReady = true;
      const backend = owner.getBackend();
      backend.on('ready', () => this.ready());
      backend.client?.then((client) => (this.mainClient = client)).catch(() => undefined);
    }
    const catchingUp = this.mainClient?.status === 'ready';
    this.error(error, owner.closing !== undefined || catchingUp);
  }

  /**
   * An error of any Redis connection. A lost connection is `expected` while its owner is closing, or
   * while another of the owner's connections is ready.
   */
  error(error: Error, expected = false): void {
    if (!isConnectionError(error)) {
      this.logger.error(`${this.label}: ${error.message}`, error.stack);
      return;
    }
    if (this.down || expected) return;
    this.down = true;
    this.logger.warn(`${this.label}: Redis connection lost (${error.message}); retrying`);
  }

  /** The connection answers again. */
  ready(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.log(`${this.label}: Redis connection back`);
  }
}

function isConnectionError(error: Error): boolean {
  return (
    !isNotConnectionError(error) || CONNECTION_ERROR_CODES.has((error as NodeJS.ErrnoException).code ?? '')
  );
}
