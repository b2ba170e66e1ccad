import { Processor } from '@nestjs/bullmq';
import type { WorkerOptions } from 'bullmq';
import type { Env } from '../config/env.schema';
import type { QueueName } from './queue-name.enum';

/** Worker options a processor may set (the connection and prefix come from the queue registration). */
export type ProcessorWorkerOptions = Omit<WorkerOptions, 'connection' | 'prefix'>;

/** Lock and stall timing every worker of this installation uses (a crashed worker's job is retried after them). */
export function workerTimingOptions(env: Env): Pick<WorkerOptions, 'lockDuration' | 'stalledInterval'> {
  return { lockDuration: env.WORKER_LOCK_DURATION_MS, stalledInterval: env.WORKER_STALLED_INTERVAL_MS };
}

/**
 * Give a `@Processor` class the worker options the environment asks for (concurrency, lock, stall
 * check). BullMQ reads them when the worker is created, at module init, so a processor module calls
 * this from its `forRoot(env)`, before Nest builds it; the class keeps its static `@Processor(queue)`.
 */
export function configureProcessor(
  processor: abstract new (...args: never[]) => unknown,
  queue: QueueName,
  env: Env,
  options: ProcessorWorkerOptions = {},
): void {
  Processor(queue, { ...workerTimingOptions(env), ...options })(processor as unknown as () => void);
}
