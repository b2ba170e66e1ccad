import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import type { Job } from 'bullmq';
import { JobName } from '../../../jobs/job-catalogue';
import { JobHandlerRegistry } from '../../../jobs/job-handler-registry';
import { handlerFor } from '../../../jobs/job-handlers';
import type { JobHandlers } from '../../../jobs/job-handlers';
import { QueueName } from '../../../jobs/queue-name.enum';
import { RedisOutageLog } from '../../../jobs/redis-outage-log';
import { SourceSyncService } from '../sync/source-sync.service';

/** The sources queue's worker: one sync per job, its progress on the job (and so on the dashboard). */
@Processor(QueueName.Sources)
export class SourceSyncProcessor extends WorkerHost {
  private readonly logger = new Logger(SourceSyncProcessor.name);
  private readonly outages = new RedisOutageLog(`${QueueName.Sources} worker`, this.logger);

  private readonly handlers: JobHandlers<QueueName.Sources> = {
    [JobName.SyncSource]: (data, job) =>
      this.sync.sync(data.sourceId, data.trigger, (progress) => {
        job.updateProgress(progress).catch((error: unknown) => {
          this.logger.warn(`progress of job ${job.id} not recorded: ${(error as Error).message}`);
        });
      }),
  };

  constructor(
    private readonly sync: SourceSyncService,
    registry: JobHandlerRegistry,
  ) {
    super();
    registry.register(QueueName.Sources, this.handlers);
  }

  async process(job: Job): Promise<unknown> {
    const handler = handlerFor(this.handlers, job.name);
    if (!handler) throw new UnrecoverableError(`The sources queue has no handler for "${job.name}" jobs.`);
    return handler(job.data, job);
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.outages.record(this.worker, error);
  }
}
