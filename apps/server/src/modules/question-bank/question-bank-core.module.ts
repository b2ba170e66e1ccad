import { Module } from '@nestjs/common';
import { CollectionsCoreModule } from '../collections/collections-core.module';
import { ExpectedSourceResolver } from './expected-source-resolver';
import { QuestionBankItemService } from './question-bank-item.service';
import { QuestionBankService } from './question-bank.service';
import { QuestionExportService } from './question-export.service';
import { QuestionGenerationService } from './question-generation.service';
import { QuestionImportService } from './question-import.service';
import { QuestionTemplateService } from './question-template.service';
import { CorpusRepository } from './repositories/corpus.repository';
import { QuestionBankItemRepository } from './repositories/question-bank-item.repository';
import { QuestionBankRepository } from './repositories/question-bank.repository';
import { QuestionTemplateRepository } from './repositories/question-template.repository';

const SERVICES = [
  QuestionTemplateService,
  QuestionBankService,
  QuestionBankItemService,
  QuestionImportService,
  QuestionExportService,
  QuestionGenerationService,
];

const REPOSITORIES = [
  QuestionTemplateRepository,
  QuestionBankRepository,
  QuestionBankItemRepository,
  CorpusRepository,
];

/**
 * The question-bank services without HTTP: shared by the API, the evaluation module and the workers.
 * The corpus repository is shared too: evaluation runs check their expected sources with it.
 */
@Module({
  imports: [CollectionsCoreModule],
  providers: [...SERVICES, ...REPOSITORIES, ExpectedSourceResolver],
  exports: [...SERVICES, CorpusRepository],
})
export class QuestionBankCoreModule {}
