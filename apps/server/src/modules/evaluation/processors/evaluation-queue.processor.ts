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
import { QuestionGenerationService } from '../../question-bank/question-generation.service';
import { AblationService } from '../ablation.service';
import { EvaluationService } from '../evaluation.service';
import { RerankerFitService } from '../../reranker/reranker-fit.service';
import { DomainError } from '../../../common/errors/domain-errors';

/** The evaluation queue's worker: question generation, bank evaluation runs, ablations and reranker fits
 *  (one service call each). */
@Processor(QueueName.Evaluation)
export class EvaluationQueueProcessor extends WorkerHost {
  private readonly outages = new RedisOutageLog(
    `${QueueName.Evaluation} worker`,
    new Logger(EvaluationQueueProcessor.name),
  );

  /** One handler per job of the evaluation queue (checked against the catalogue at boot). */
  private readonly handlers: JobHandlers<QueueName.Evaluation> = {
    [JobName.GenerateQuestions]: (data, job) => this.generation.generate(data, progressOf(job)),
    [JobName.EvaluateBank]: (data, job) => this.evaluation.execute(data.runId, progressOf(job)),
    [JobName.EvaluateAblation]: (data, job) => this.ablations.execute(data.ablationId, progressOf(job)),
    [JobName.FitReranker]: (data, job) => this.rerankers.execute(data.modelId, progressOf(job)),
  };

  constructor(
    private readonly generation: QuestionGenerationService,
    private readonly evaluation: EvaluationService,
    private readonly ablations: AblationService,
    private readonly rerankers: RerankerFitService,
    registry: JobHandlerRegistry,
  ) {
    super();
    registry.register(QueueName.Evaluation, this.handlers);
  }

  async process(job: Job): Promise<unknown> {
    const handler = handlerFor(this.handlers, job.name);
    if (!handler) throw new UnrecoverableError(`the evaluation queue has no job named "${job.name}"`);
    try {
      return await handler(job.data, job);
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

/** Progress as the percentage the evaluation screens show. */
function progressOf(job: Job): (fraction: number) => Promise<void> {
  return (fraction) => job.updateProgress(Math.round(fraction * 100));
}
