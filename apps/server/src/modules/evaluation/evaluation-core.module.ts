import { Module } from '@nestjs/common';
import { CollectionsCoreModule } from '../collections/collections-core.module';
import { QuestionBankCoreModule } from '../question-bank/question-bank-core.module';
import { RerankerCoreModule } from '../reranker/reranker-core.module';
import { SearchPortsModule } from '../rag/search-ports.module';
import { AblationService } from './ablation.service';
import { EvaluationService } from './evaluation.service';
import { AblationRepository } from './repositories/ablation.repository';
import { EvalRunRepository } from './repositories/eval-run.repository';

/** Evaluation runs without HTTP: shared by the API and the workers. */
@Module({
  imports: [CollectionsCoreModule, QuestionBankCoreModule, RerankerCoreModule, SearchPortsModule],
  providers: [EvaluationService, AblationService, AblationRepository, EvalRunRepository],
  exports: [EvaluationService, AblationService],
})
export class EvaluationCoreModule {}
