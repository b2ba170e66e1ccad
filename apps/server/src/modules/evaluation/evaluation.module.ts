import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { BankEvaluationController } from './bank-evaluation.controller';
import { EvalRunController } from './eval-run.controller';
import { EvaluationCoreModule } from './evaluation-core.module';

/** REST for evaluation runs of question banks. */
@Module({
  imports: [EvaluationCoreModule, AuthModule],
  controllers: [BankEvaluationController, EvalRunController],
})
export class EvaluationModule {}
