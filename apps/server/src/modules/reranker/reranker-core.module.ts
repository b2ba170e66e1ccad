import { Module } from '@nestjs/common';
import { CollectionsCoreModule } from '../collections/collections-core.module';
import { QuestionBankCoreModule } from '../question-bank/question-bank-core.module';
import { RerankerModelRepository } from './repositories/reranker-model.repository';
import { RerankerFitService } from './reranker-fit.service';
import { RerankerModelService } from './reranker-model.service';
import { RerankerRegistry } from './reranker-registry.service';

/** Fitted rerankers without HTTP: which one serves `enableRerank`, the fitting job, the models' rows. */
@Module({
  imports: [QuestionBankCoreModule, CollectionsCoreModule],
  providers: [RerankerRegistry, RerankerModelRepository, RerankerModelService, RerankerFitService],
  exports: [RerankerRegistry, RerankerModelService, RerankerFitService],
})
export class RerankerCoreModule {}
