import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import type { Job } from 'bullmq';
import { JobName } from '../../../jobs/job-catalogue';
import { JobHandlerRegistry } from '../../../jobs/job-handler-registry';
import { handlerFor, isJobNamed } from '../../../jobs/job-handlers';
import type { JobHandlers } from '../../../jobs/job-handlers';
import { QueueName } from '../../../jobs/queue-name.enum';
import { RedisOutageLog } from '../../../jobs/redis-outage-log';
import { CollectionDeletionService } from '../../collections/collection-deletion.service';
import { PermanentFailureError } from '../errors/permanent-failure.error';
import { IngestionPipelineService } from '../ingestion-pipeline.service';
import type { JobAttempt } from '../ingestion-progress';
import { ReembedService } from '../reembed.service';

/**
 * The ingestion queue's worker: hands each job to its service, reports progress, and turns failures
 * that retrying cannot fix into UnrecoverableError. Worker options (concurrency, lock, stall check)
 * come from the environment (IngestionWorkersModule.forRoot).
 */
@Processor(QueueName.Ingestion)
export class IngestionProcessor extends WorkerHost {
  private readonly logger = new Logger(IngestionProcessor.name);
  private readonly outages = new RedisOutageLog(`${QueueName.Ingestion} worker`, this.logger);

  /** One handler per job of the ingestion queue (checked against the catalogue at boot). */
  private readonly handlers: JobHandlers<QueueName.Ingestion> = {
    [JobName.IngestDocument]: (data, job) => this.pipeline.ingest(data.documentId, this.attempt(job)),
    [JobName.ReembedChunks]: (data, job) => this.reembed.reembed(data.model, this.attempt(job)),
    [JobName.DeleteCollection]: (data, job) =>
      this.collectionDeletion.execute(data.collectionId, (progress) => job.updateProgress(progress)),
  };

  constructor(
    private readonly pipeline: IngestionPipelineService,
    private readonly reembed: ReembedService,
    private readonly collectionDeletion: CollectionDeletionService,
    registry: JobHandlerRegistry,
  ) {
    super();
    registry.register(QueueName.Ingestion, this.handlers);
  }

  async process(job: Job): Promise<unknown> {
    const handler = handlerFor(this.handlers, job.name);
    if (!handler) throw new UnrecoverableError(`The ingestion queue has no handler for "${job.name}" jobs.`);
    try {
      return await handler(job.data, job);
    } catch (error) {
      if (error instanceof PermanentFailureError) throw new UnrecoverableError(error.message);
      throw error;
    }
  }

  /** The attempt a service reports to: its number, and progress sent without waiting. */
  private attempt(job: Job): JobAttempt {
    return {
      attempt: job.attemptsMade + 1,
      maxAttempts: job.opts.attempts ?? 1,
      started: job.attemptsStarted,
      // Progress is telemetry: sent without waiting (one Redis connection keeps the reports in order).
      report: async (progress) => {
        job.updateProgress({ ...progress, attempt: job.attemptsStarted }).catch((error: unknown) => {
          this.logger.warn(`progress of job ${job.id} not recorded: ${(error as Error).message}`);
        });
      },
    };
  }

  /** Redis going away: one warning per outage instead of a stderr line per reconnect attempt. */
  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.outages.record(this.worker, error);
  }

  /** A job that will not run again (retries spent, unrecoverable, or crashed too often): its document failed. */
  @OnWorkerEvent('failed')
  async onFailed(job: Job | undefined, error: Error): Promise<void> {
    if (!isJobNamed(job, JobName.IngestDocument)) return;
    try {
      if (!(await job.isFailed())) return;
      await this.pipeline.markFailedIfUnfinished(job.data.documentId, error.message);
    } catch (cause) {
      this.logger.warn(`could not record the failure of job ${job.id}: ${(cause as Error).message}`);
    }
  }
}
