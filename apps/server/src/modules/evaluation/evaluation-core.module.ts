import { Module } from '@nestjs/common';
import { QuestionBankCoreModule } from '../question-bank/question-bank-core.module';
import { EvaluationService } from './evaluation.service';

/** Evaluation runs without HTTP: shared by the API and the workers. */
@Module({ imports: [QuestionBankCoreModule], providers: [EvaluationService], exports: [EvaluationService] })
export class EvaluationCoreModule {}
