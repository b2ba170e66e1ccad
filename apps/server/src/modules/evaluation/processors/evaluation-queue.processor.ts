import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { JobName } from '../../../jobs/job-catalogue';
import type { JobPayloads } from '../../../jobs/job-catalogue';
import { QueueName } from '../../../jobs/queue-name.enum';
import { RedisOutageLog } from '../../../jobs/redis-outage-log';
import { QuestionGenerationService } from '../../question-bank/question-generation.service';
import { AblationService } from '../ablation.service';
import { EvaluationService } from '../evaluation.service';
import { DomainError } from '../../../common/errors/domain-errors';

/** The evaluation queue's worker: question generation, bank evaluation runs and ablations (one service call each). */
@Processor(QueueName.Evaluation)
export class EvaluationQueueProcessor extends WorkerHost {
  private readonly outages = new RedisOutageLog(
    `${QueueName.Evaluation} worker`,
    new Logger(EvaluationQueueProcessor.name),
  );

  constructor(
    private readonly generation: QuestionGenerationService,
    private readonly evaluation: EvaluationService,
    private readonly ablations: AblationService,
  ) {
    super();
  }

  async process(job: Job): Promise<unknown> {
    const progress = (fraction: number) => job.updateProgress(Math.round(fraction * 100));
    try {
      switch (job.name) {
        case JobName.GenerateQuestions:
          return await this.generation.generate(job.data as JobPayloads[JobName.GenerateQuestions], progress);
        case JobName.EvaluateBank:
          return await this.evaluation.execute(
            (job.data as JobPayloads[JobName.EvaluateBank]).runId,
            progress,
          );
        case JobName.EvaluateAblation:
          return await this.ablations.execute(
            (job.data as JobPayloads[JobName.EvaluateAblation]).ablationId,
            progress,
          );
        default:
          throw new UnrecoverableError(`the evaluation queue has no job named "${job.name}"`);
      }
    } catch (error) {
      // A bank, template or run that is gone will not come back on a retry.
      if (error instanceof DomainError && error.permanent) throw new UnrecoverableError(error.message);
      throw error;
    }
  }

  /** Redis going away: one warning per outage instead of a stderr line per reconnect attempt. */
  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.outages.record(this.worker, error);
  }
}
