import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectConfig } from '../../config/app-config';
import type { Env } from '../../config/env.schema';
import { SourceRepository } from './repositories/source.repository';
import { SourceQueue } from './source-queue.service';

/** Sources queued per pass; more due ones wait for the next pass. */
const BATCH = 100;

/**
 * Syncs sources on their schedule: every SOURCE_SCHEDULER_INTERVAL_MS the API queues the sync of each
 * source whose next sync is due, and moves its next sync a period on. Several API processes may do it at
 * once: a source's sync has one job id, so a due source is synced once.
 */
@Injectable()
export class SourceScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SourceScheduler.name);
  private timer: ReturnType<typeof setInterval> | undefined;
  private running = false;
  private closed = false;

  constructor(
    private readonly sources: SourceRepository,
    private readonly queue: SourceQueue,
    @InjectConfig() private readonly env: Env,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.env.SOURCE_SCHEDULER_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    this.closed = true;
    clearInterval(this.timer);
  }

  /** One pass: queue every due source; returns how many were queued. */
  async tick(): Promise<number> {
    if (this.running || this.closed) return 0;
    this.running = true;
    let queued = 0;
    try {
      for (const id of await this.sources.due(BATCH)) {
        if (this.closed) break;
        const before = await this.sources.find(id);
        await this.sources.markRequested(id);
        const { alreadyQueued } = await this.queue.enqueueSync(id, 'schedule');
        if (alreadyQueued) await this.sources.restoreRequested(id, before?.sync_requested_at ?? null);
        else queued++;
        await this.sources.scheduled(id);
      }
    } catch (error) {
      this.logger.warn(`scheduled syncs not queued: ${(error as Error).message}`);
    } finally {
      this.running = false;
    }
    return queued;
  }
}
