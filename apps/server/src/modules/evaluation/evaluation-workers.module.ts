import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import type { Env } from '../../config/env.schema';
import { QueueName } from '../../jobs/queue-name.enum';
import { configureProcessor } from '../../jobs/worker-options';
import { QuestionBankCoreModule } from '../question-bank/question-bank-core.module';
import { RerankerCoreModule } from '../reranker/reranker-core.module';
import { EvaluationCoreModule } from './evaluation-core.module';
import { EvaluationQueueProcessor } from './processors/evaluation-queue.processor';

/** The worker of the evaluation queue (question generation, bank evaluation runs, ablations, reranker fits). */
@Module({})
export class EvaluationWorkersModule {
  static forRoot(env: Env): DynamicModule {
    configureProcessor(EvaluationQueueProcessor, QueueName.Evaluation, env, { concurrency: 1 });
    return {
      module: EvaluationWorkersModule,
      imports: [QuestionBankCoreModule, EvaluationCoreModule, RerankerCoreModule],
      providers: [EvaluationQueueProcessor],
    };
  }
}
