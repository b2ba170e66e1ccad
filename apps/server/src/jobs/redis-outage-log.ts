import type { Logger } from '@nestjs/common';
import { isNotConnectionError } from 'bullmq';
import type { IQueueBackend } from 'bullmq';

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
  getBackend(): Pick<IQueueBackend, 'on'>;
}

/**
 * The 'error' events of a Redis connection, logged. BullMQ and ioredis retry a lost connection by
 * themselves and report every failed attempt; with no listener they print each one to stderr. Here an
 * outage is one warning, and one line when the connection is back; other errors are logged as they come.
 */
export class RedisOutageLog {
  private down = false;
  private watchingReady = false;

  constructor(
    private readonly label: string,
    private readonly logger: Pick<Logger, 'warn' | 'log' | 'error'>,
  ) {}

  /** An error of a BullMQ worker, queue or queue-event reader (a processor's `@OnWorkerEvent('error')`). */
  record(owner: RedisClientOwner, error: Error): void {
    if (!this.watchingReady) {
      this.watchingReady = true;
      owner.getBackend().on('ready', () => this.ready());
    }
    this.error(error, owner.closing !== undefined);
  }

  /** An error of any Redis connection; while it is `closing`, a lost connection is expected. */
  error(error: Error, closing = false): void {
    if (!isConnectionError(error)) {
      this.logger.error(`${this.label}: ${error.message}`, error.stack);
      return;
    }
    if (this.down || closing) return;
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
