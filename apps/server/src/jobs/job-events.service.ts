import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import { QueueEvents } from 'bullmq';
import type { Queue } from 'bullmq';
import type { QueueName } from './queue-name.enum';
import { RedisOutageLog } from './redis-outage-log';

/** What happened to a job, as BullMQ's event stream reports it (from any process). */
export type JobEvent =
  | { type: 'progress'; queue: QueueName; jobId: string; data: unknown }
  | { type: 'completed'; queue: QueueName; jobId: string; returnvalue: unknown }
  | { type: 'failed'; queue: QueueName; jobId: string; failedReason: string }
  | { type: 'active' | 'waiting' | 'delayed' | 'stalled' | 'removed'; queue: QueueName; jobId: string };

export type JobEventListener = (event: JobEvent) => void;

const FORWARDED = [
  'progress',
  'completed',
  'failed',
  'active',
  'waiting',
  'delayed',
  'stalled',
  'removed',
] as const;

/**
 * One BullMQ QueueEvents reader per queue, opened on first use, fanned out to any number of listeners
 * (live progress streams, metrics). Workers may run in other processes: the events travel through Redis.
 */
@Injectable()
export class JobEventsService implements OnApplicationShutdown {
  private readonly logger = new Logger(JobEventsService.name);
  private readonly readers = new Map<QueueName, QueueEvents>();
  private readonly listeners = new Map<QueueName, Set<JobEventListener>>();
  private closed = false;

  constructor(private readonly moduleRef: ModuleRef) {}

  /** Call `listener` for every event of `queue` (of one job when `jobId` is given); returns the unsubscribe. */
  subscribe(queue: QueueName, listener: JobEventListener, jobId?: string): () => void {
    const wrapped: JobEventListener = jobId ? (event) => event.jobId === jobId && listener(event) : listener;
    this.reader(queue);
    const set = this.listeners.get(queue) ?? new Set<JobEventListener>();
    this.listeners.set(queue, set);
    set.add(wrapped);
    return () => set.delete(wrapped);
  }

  /** Resolves once the reader of `queue` listens (events before that are not seen). */
  async ready(queue: QueueName): Promise<void> {
    await this.reader(queue).waitUntilReady();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    const readers = [...this.readers.values()];
    this.readers.clear();
    await Promise.all(readers.map((reader) => closeWithin(reader, CLOSE_DEADLINE_MS)));
  }

  private reader(queue: QueueName): QueueEvents {
    const existing = this.readers.get(queue);
    if (existing) return existing;
    if (this.closed) throw new Error('the application is shutting down');
    const source = this.moduleRef.get<Queue>(getQueueToken(queue), { strict: false });
    const reader = new QueueEvents(queue, { connection: source.opts.connection, prefix: source.opts.prefix });
    const outages = new RedisOutageLog(`${queue} queue events`, this.logger);
    reader.on('error', (error) => outages.record(reader, error));
    for (const type of FORWARDED) {
      reader.on(type, (args: Record<string, unknown>) => this.dispatch(queue, toEvent(queue, type, args)));
    }
    this.readers.set(queue, reader);
    return reader;
  }

  private dispatch(queue: QueueName, event: JobEvent): void {
    for (const listener of this.listeners.get(queue) ?? []) {
      try {
        listener(event);
      } catch (error) {
        this.logger.warn(`a ${event.type} listener of ${queue} failed: ${(error as Error).message}`);
      }
    }
  }
}

/** A reader cannot close gracefully while Redis is unreachable; past the deadline its connection is dropped. */
const CLOSE_DEADLINE_MS = 2_000;

async function closeWithin(reader: QueueEvents, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const closed = await Promise.race([
    reader.close().then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  // BullMQ's disconnect() never settles while Redis is unreachable either; it leaves no open handle,
  // so it is started and not awaited.
  if (!closed) void reader.disconnect().catch(() => undefined);
}

function toEvent(
  queue: QueueName,
  type: (typeof FORWARDED)[number],
  args: Record<string, unknown>,
): JobEvent {
  const jobId = String(args.jobId);
  switch (type) {
    case 'progress':
      return { type, queue, jobId, data: args.data };
    case 'completed':
      return { type, queue, jobId, returnvalue: args.returnvalue };
    case 'failed':
      return { type, queue, jobId, failedReason: String(args.failedReason ?? '') };
    default:
      return { type, queue, jobId };
  }
}
