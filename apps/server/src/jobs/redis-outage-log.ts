import type { Logger } from '@nestjs/common';
import { isNotConnectionError } from 'bullmq';
import type { IQueueBackend } from 'bullmq';
import type { QueueName } from './queue-name.enum';

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

/** What the log needs of a BullMQ Worker. */
export interface WatchedWorker {
  closing: Promise<void> | undefined;
  getBackend(): Pick<IQueueBackend, 'on'>;
}

/**
 * The 'error' events of a queue's worker, logged. BullMQ retries a lost Redis connection by itself and
 * reports every failed attempt; with no listener it prints each one to stderr. Here an outage is one
 * warning, and one line when the connection is back; other errors are logged as they come.
 */
export class WorkerOutageLog {
  private down = false;
  private watchingReady = false;

  constructor(
    private readonly queue: QueueName,
    private readonly logger: Pick<Logger, 'warn' | 'log' | 'error'>,
  ) {}

  /** The processor's `@OnWorkerEvent('error')` handler calls this. */
  record(worker: WatchedWorker, error: Error): void {
    if (!isConnectionError(error)) {
      this.logger.error(`${this.queue} worker: ${error.message}`, error.stack);
      return;
    }
    if (this.down || worker.closing) return;
    this.down = true;
    this.logger.warn(`${this.queue} worker: Redis connection lost (${error.message}); retrying`);
    if (!this.watchingReady) {
      this.watchingReady = true;
      worker.getBackend().on('ready', () => this.recovered());
    }
  }

  private recovered(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.log(`${this.queue} worker: Redis connection back`);
  }
}

function isConnectionError(error: Error): boolean {
  return (
    !isNotConnectionError(error) || CONNECTION_ERROR_CODES.has((error as NodeJS.ErrnoException).code ?? '')
  );
}
