import { ConflictException, Injectable } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { Job, JobState, Queue } from 'bullmq';
import { jobOptions, JobName } from '../../jobs/job-catalogue';
import type { JobPayloads } from '../../jobs/job-catalogue';
import { QueueName } from '../../jobs/queue-name.enum';

/** A job of the ingestion queue that will still run (or is running). */
const PENDING_STATES: readonly (JobState | 'unknown')[] = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
];

export interface JobSnapshot {
  jobId: string;
  state: JobState | 'unknown';
  progress: unknown;
  attemptsMade: number;
  attemptsStarted: number;
}

/**
 * The ingestion queue, with its dedupe rules: a document's job id is derived from its content hash, so
 * the same bytes are never processed twice at once; a finished job with that id (a document deleted and
 * uploaded again, a failure being retried) is replaced.
 */
@Injectable()
export class IngestionQueue {
  constructor(@InjectQueue(QueueName.Ingestion) private readonly queue: Queue) {}

  static ingestJobId(contentHash: string): string {
    return `ingest-${contentHash}`;
  }

  static reembedJobId(model: string): string {
    return `reembed-${model.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
  }

  /** Queue ingestion of each document unless its job is already pending; returns the job ids in order. */
  async enqueueIngestion(documents: { id: string; contentHash: string }[]): Promise<string[]> {
    const ids: string[] = [];
    const fresh: { id: string; jobId: string }[] = [];
    for (let i = 0; i < documents.length; i += 50) {
      const slice = documents.slice(i, i + 50);
      const pending = await Promise.all(
        slice.map((document) =>
          this.clearStale(IngestionQueue.ingestJobId(document.contentHash), (job) =>
            sameDocument(job, document.id),
          ),
        ),
      );
      slice.forEach((document, j) => {
        const jobId = IngestionQueue.ingestJobId(document.contentHash);
        ids.push(jobId);
        if (!pending[j]) fresh.push({ id: document.id, jobId });
      });
    }
    for (let i = 0; i < fresh.length; i += 500) {
      await this.queue.addBulk(
        fresh.slice(i, i + 500).map(({ id, jobId }) => ({
          name: JobName.IngestDocument,
          data: { documentId: id } satisfies JobPayloads[JobName.IngestDocument],
          opts: jobOptions(JobName.IngestDocument, jobId),
        })),
      );
    }
    return ids;
  }

  /** Queue the re-embed backfill for `model` unless one is pending; returns its job id. */
  async enqueueReembed(model: string): Promise<{ jobId: string; alreadyQueued: boolean }> {
    const jobId = IngestionQueue.reembedJobId(model);
    const pending = await this.clearStale(jobId, () => true);
    if (!pending) {
      await this.queue.add(
        JobName.ReembedChunks,
        { model } satisfies JobPayloads[JobName.ReembedChunks],
        jobOptions(JobName.ReembedChunks, jobId),
      );
    }
    return { jobId, alreadyQueued: pending };
  }

  /**
   * Stop a document's job: removed if it has not started; a running job notices at its next step that
   * the document is gone. Returns what happened.
   */
  async cancelIngestion(contentHash: string, documentId: string): Promise<'removed' | 'running' | 'none'> {
    const job = await this.queue.getJob(IngestionQueue.ingestJobId(contentHash));
    if (!job || !sameDocument(job, documentId)) return 'none';
    const state = await job.getState();
    if (state === 'active') return 'running';
    try {
      await job.remove();
      return PENDING_STATES.includes(state) ? 'removed' : 'none';
    } catch {
      return 'running'; // picked up by a worker in the meantime: it stops at its next step
    }
  }

  async snapshot(jobId: string): Promise<JobSnapshot | null> {
    const job = await this.queue.getJob(jobId);
    if (!job) return null;
    return {
      jobId,
      state: await job.getState(),
      progress: job.progress,
      attemptsMade: job.attemptsMade,
      attemptsStarted: job.attemptsStarted,
    };
  }

  /**
   * True when a job with `jobId` is pending and `keep` accepts it. Otherwise a finished job with that id
   * is removed, so that the id can be used again; a running job for something else (a deleted document's
   * job winding down) is waited for briefly.
   */
  private async clearStale(jobId: string, keep: (job: Job) => boolean): Promise<boolean> {
    for (let waited = 0; ; waited += 200) {
      const job = await this.queue.getJob(jobId);
      if (!job) return false;
      const state = await job.getState();
      if (PENDING_STATES.includes(state) && keep(job)) return true;
      if (state !== 'active') {
        try {
          await job.remove();
          return false;
        } catch {
          // became active meanwhile: look again
        }
      }
      if (waited >= 5_000) {
        throw new ConflictException(
          'The previous copy of this document is still being cancelled; try again in a few seconds.',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

function sameDocument(job: Job, documentId: string): boolean {
  return (job.data as Partial<JobPayloads[JobName.IngestDocument]>).documentId === documentId;
}
