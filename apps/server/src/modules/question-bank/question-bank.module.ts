import { Module } from '@nestjs/common';
import { CollectionsCoreModule } from '../collections/collections-core.module';
import { QuestionBankCoreModule } from './question-bank-core.module';
import { QuestionBankController } from './question-bank.controller';
import { QuestionTemplateController } from './question-template.controller';

/** REST for question banks, their items and question templates. */
@Module({
  imports: [QuestionBankCoreModule, CollectionsCoreModule],
  controllers: [QuestionBankController, QuestionTemplateController],
})
export class QuestionBankModule {}
