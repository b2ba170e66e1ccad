import { Injectable, Logger } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { Job, JobState, Queue } from 'bullmq';
import type Redis from 'ioredis';
import { InjectRedis } from '../../jobs/redis-client.provider';
import { reconnectOnceRedisAnswers } from '../../jobs/queue-reconnect';
import { jobOptions, JobName } from '../../jobs/job-catalogue';
import type { JobPayloads } from '../../jobs/job-catalogue';
import { QueueName } from '../../jobs/queue-name.enum';
import { ConflictError, UnavailableError } from '../../common/errors/domain-errors';

/** How long a request waits for Redis to answer before it is told the queue is unavailable. */
const REDIS_CHECK_DEADLINE_MS = 2_000;
/** The most an enqueue may take once Redis answered (it dies mid-way: the request still ends). */
const ENQUEUE_DEADLINE_MS = 20_000;
/** GET /documents/:id reads a job's progress, but never waits long for it. */
const SNAPSHOT_DEADLINE_MS = 1_000;

export const QUEUE_UNAVAILABLE_MESSAGE =
  'The job queue (Redis) is not reachable, so nothing was queued. Please try again in a moment.';

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
 * The ingestion queue, with its dedupe rules: a document's job id is derived from its id (the same bytes
 * may be two documents, one in each of two collections), so a document is never processed twice at once;
 * a finished job with that id (a failure being retried) is replaced. A collection's deletion is one job
 * per collection.
 */
@Injectable()
export class IngestionQueue {
  private readonly logger = new Logger(IngestionQueue.name);

  // The queue's connection errors are logged once per outage by the jobs module (QueueOutageWatcher).
  constructor(
    @InjectQueue(QueueName.Ingestion) private readonly queue: Queue,
    @InjectRedis() private readonly redis: Redis,
  ) {}

  static ingestJobId(documentId: string): string {
    return `ingest-${documentId}`;
  }

  static deleteCollectionJobId(collectionId: string): string {
    return `delete-collection-${collectionId}`;
  }

  static reembedJobId(model: string): string {
    return `reembed-${model.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
  }

  /**
   * Queue ingestion of each document unless its job is already pending; returns the job ids in order.
   * Redis not answering within a short deadline: 503 (an UnavailableError), never a hang.
   */
  async enqueueIngestion(documents: { id: string }[]): Promise<string[]> {
    if (documents.length === 0) return [];
    await this.ensureReachable();
    return (await this.withinDeadline(this.addIngestionJobs(documents))).ids;
  }

  /**
   * The reconciler's repair: queue each document that has no pending job (same job id as an upload, so a
   * job that does exist is left alone). Returns the ids of the documents that got a new job. Throws
   * when Redis does not answer.
   */
  async requeueMissing(documents: { id: string }[]): Promise<string[]> {
    if (documents.length === 0) return [];
    const reason = await this.unreachableBecause();
    if (reason !== null) throw new Error(`Redis unavailable (${reason})`);
    const { fresh } = await deadline(this.addIngestionJobs(documents), ENQUEUE_DEADLINE_MS, 'requeueing');
    return fresh.map((job) => job.id);
  }

  private async addIngestionJobs(
    documents: { id: string }[],
  ): Promise<{ ids: string[]; fresh: { id: string; jobId: string }[] }> {
    const ids: string[] = [];
    const fresh: { id: string; jobId: string }[] = [];
    for (let i = 0; i < documents.length; i += 50) {
      const slice = documents.slice(i, i + 50);
      const pending = await Promise.all(
        slice.map((document) =>
          this.clearStale(IngestionQueue.ingestJobId(document.id), (job) => sameDocument(job, document.id)),
        ),
      );
      slice.forEach((document, j) => {
        const jobId = IngestionQueue.ingestJobId(document.id);
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
    return { ids, fresh };
  }

  /** Queue the re-embed backfill for `model` unless one is pending; returns its job id. */
  async enqueueReembed(model: string): Promise<{ jobId: string; alreadyQueued: boolean }> {
    await this.ensureReachable();
    return this.withinDeadline(this.addReembedJob(model));
  }

  private async addReembedJob(model: string): Promise<{ jobId: string; alreadyQueued: boolean }> {
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
   * the document is gone. Returns what happened; with Redis unreachable the job is left where it is
   * ('deferred'): when it runs, it finds the document gone and stops.
   */
  async cancelIngestion(documentId: string): Promise<'removed' | 'running' | 'none' | 'deferred'> {
    if ((await this.unreachableBecause()) !== null) return 'deferred';
    const job = await this.queue.getJob(IngestionQueue.ingestJobId(documentId));
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

  /**
   * Queue the deletion of a collection unless its job is pending; returns the job id. Redis not
   * answering within a short deadline: 503 (an UnavailableError).
   */
  async enqueueCollectionDeletion(collectionId: string): Promise<string> {
    await this.ensureReachable();
    return this.withinDeadline(this.addCollectionDeletion(collectionId));
  }

  /**
   * The reconciler's repair for collections left being deleted without a job (Redis came back empty, a
   * crash between marking and queueing): queue each one whose job is not pending. Returns the ids that
   * got a new job; throws when Redis does not answer.
   */
  async requeueCollectionDeletions(collectionIds: readonly string[]): Promise<string[]> {
    if (collectionIds.length === 0) return [];
    const reason = await this.unreachableBecause();
    if (reason !== null) throw new Error(`Redis unavailable (${reason})`);
    const fresh: string[] = [];
    for (const id of collectionIds) {
      const jobId = IngestionQueue.deleteCollectionJobId(id);
      const pending = await deadline(
        this.clearStale(jobId, () => true),
        ENQUEUE_DEADLINE_MS,
        'requeueing',
      );
      if (pending) continue;
      await deadline(this.addCollectionDeletion(id), ENQUEUE_DEADLINE_MS, 'requeueing');
      fresh.push(id);
    }
    return fresh;
  }

  private async addCollectionDeletion(collectionId: string): Promise<string> {
    const jobId = IngestionQueue.deleteCollectionJobId(collectionId);
    const pending = await this.clearStale(jobId, () => true);
    if (!pending) {
      await this.queue.add(
        JobName.DeleteCollection,
        { collectionId } satisfies JobPayloads[JobName.DeleteCollection],
        jobOptions(JobName.DeleteCollection, jobId),
      );
    }
    return jobId;
  }

  /** A job's state and progress; null when there is no such job or Redis does not answer promptly. */
  async snapshot(jobId: string): Promise<JobSnapshot | null> {
    if (!(await this.connected())) return null;
    return deadline(this.readSnapshot(jobId), SNAPSHOT_DEADLINE_MS, 'reading the job').catch(() => null);
  }

  private async readSnapshot(jobId: string): Promise<JobSnapshot | null> {
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

  /** Whether the queue's Redis connection is up right now (no round trip: cheap enough for every read). */
  private async connected(): Promise<boolean> {
    try {
      const client = await deadline(this.queue.getBackend().client, REDIS_CHECK_DEADLINE_MS, 'connecting');
      return client.status === 'ready';
    } catch {
      return false;
    }
  }

  /** Null when Redis answers a PING within the deadline; otherwise why not. */
  private async unreachableBecause(): Promise<string | null> {
    try {
      await deadline(
        (async () => {
          const client = await this.queue.getBackend().client;
          // A client that is reconnecting would hold the command until Redis is back: ask only a ready one.
          // One waiting out its reconnect backoff while Redis answers again reconnects now, not in 20 s.
          if (client.status !== 'ready') await reconnectOnceRedisAnswers(client, this.redis);
          await client.runCommand('ping', []);
        })(),
        REDIS_CHECK_DEADLINE_MS,
        'PING',
      );
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  }

  private async ensureReachable(): Promise<void> {
    const reason = await this.unreachableBecause();
    if (reason === null) return;
    this.logger.warn(`ingestion queue: nothing queued, Redis unavailable (${reason})`);
    throw new UnavailableError(QUEUE_UNAVAILABLE_MESSAGE);
  }

  /** Redis going away in the middle of an enqueue ends the request with a 503 too. */
  private async withinDeadline<T>(work: Promise<T>): Promise<T> {
    try {
      return await deadline(work, ENQUEUE_DEADLINE_MS, 'queueing the jobs');
    } catch (error) {
      if (error instanceof DeadlineError || (await this.unreachableBecause()) !== null) {
        this.logger.warn(`ingestion queue: ${(error as Error).message}`);
        throw new UnavailableError(QUEUE_UNAVAILABLE_MESSAGE);
      }
      throw error;
    }
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
        throw new ConflictError(
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

class DeadlineError extends Error {}

/** `work`, or a DeadlineError after `ms` (the work itself is left to finish or fail on its own). */
async function deadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new DeadlineError(`${what}: no answer from Redis within ${ms} ms`)),
          ms,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
