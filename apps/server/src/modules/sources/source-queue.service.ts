import { Injectable } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { JobState, Queue } from 'bullmq';
import { UnavailableError } from '../../common/errors/domain-errors';
import { jobOptions, JobName } from '../../jobs/job-catalogue';
import type { JobPayloads } from '../../jobs/job-catalogue';
import { QueueName } from '../../jobs/queue-name.enum';
import { QUEUE_UNAVAILABLE_MESSAGE } from '../ingestion/ingestion-queue.service';

/** The most a request waits for Redis before it is told the queue is unavailable. */
const DEADLINE_MS = 5_000;

const PENDING: readonly (JobState | 'unknown')[] = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
];

/**
 * The sources queue. A source's sync has a job id derived from the source's id, so two syncs of one
 * source never run at once: asking again while one waits or runs answers that one; a finished job with
 * the id is removed first, so the id can be used again.
 */
@Injectable()
export class SourceQueue {
  constructor(@InjectQueue(QueueName.Sources) private readonly queue: Queue) {}

  static syncJobId(sourceId: string): string {
    return `sync-${sourceId}`;
  }

  async enqueueSync(
    sourceId: string,
    trigger: 'manual' | 'schedule',
  ): Promise<{ jobId: string; alreadyQueued: boolean }> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        this.add(sourceId, trigger),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new UnavailableError(QUEUE_UNAVAILABLE_MESSAGE)), DEADLINE_MS);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The state of the source's sync job; null when there is none. */
  async state(sourceId: string): Promise<JobState | 'unknown' | null> {
    const job = await this.queue.getJob(SourceQueue.syncJobId(sourceId));
    return job ? job.getState() : null;
  }

  private async add(
    sourceId: string,
    trigger: 'manual' | 'schedule',
  ): Promise<{ jobId: string; alreadyQueued: boolean }> {
    const jobId = SourceQueue.syncJobId(sourceId);
    for (let tries = 0; tries < 5; tries++) {
      const job = await this.queue.getJob(jobId);
      if (job) {
        const state = await job.getState();
        if (PENDING.includes(state)) return { jobId, alreadyQueued: true };
        try {
          await job.remove();
        } catch {
          continue; // picked up meanwhile: look again
        }
      }
      await this.queue.add(
        JobName.SyncSource,
        { sourceId, trigger } satisfies JobPayloads[JobName.SyncSource],
        jobOptions(JobName.SyncSource, jobId),
      );
      return { jobId, alreadyQueued: false };
    }
    return { jobId, alreadyQueued: true };
  }
}
