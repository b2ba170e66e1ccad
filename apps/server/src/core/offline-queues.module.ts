import { getQueueToken } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import type { Provider } from '@nestjs/common';
import { QueueName } from '../jobs/queue-name.enum';

/**
 * A queue the command-line tools cannot reach: they run no jobs and open no Redis connection, but some
 * services they use could enqueue one (question generation). Enqueueing from a tool is a mistake, and
 * says so.
 */
export class OfflineQueue {
  constructor(readonly name: string) {}

  add(): never {
    throw new Error(`the ${this.name} queue is not available outside the server (no Redis connection)`);
  }

  addBulk(): never {
    return this.add();
  }
}

const QUEUES: Provider[] = Object.values(QueueName).map((name) => ({
  provide: getQueueToken(name),
  useValue: new OfflineQueue(name),
}));

/** Every queue, offline: the command-line tools' stand-in for the jobs module. */
@Global()
@Module({ providers: QUEUES, exports: QUEUES })
export class OfflineQueuesModule {}
