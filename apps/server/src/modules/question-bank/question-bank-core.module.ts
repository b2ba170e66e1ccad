import { Module } from '@nestjs/common';
import { QuestionBankItemService } from './question-bank-item.service';
import { QuestionBankService } from './question-bank.service';
import { QuestionExportService } from './question-export.service';
import { QuestionGenerationService } from './question-generation.service';
import { QuestionImportService } from './question-import.service';
import { QuestionTemplateService } from './question-template.service';

const SERVICES = [
  QuestionTemplateService,
  QuestionBankService,
  QuestionBankItemService,
  QuestionImportService,
  QuestionExportService,
  QuestionGenerationService,
];

/** The question-bank services without HTTP: shared by the API, the evaluation module and the workers. */
@Module({ providers: SERVICES, exports: SERVICES })
export class QuestionBankCoreModule {}
