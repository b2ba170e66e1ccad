import { Module } from '@nestjs/common';
import { CollectionsCoreModule } from '../collections/collections-core.module';
import { AblationController } from './ablation.controller';
import { BankEvaluationController } from './bank-evaluation.controller';
import { EvalRunController } from './eval-run.controller';
import { EvaluationCoreModule } from './evaluation-core.module';

/** REST for evaluation runs of question banks. */
@Module({
  imports: [EvaluationCoreModule, CollectionsCoreModule],
  controllers: [BankEvaluationController, EvalRunController, AblationController],
})
export class EvaluationModule {}
