import { Module } from '@nestjs/common';
import { QuestionBankCoreModule } from './question-bank-core.module';
import { QuestionBankController } from './question-bank.controller';
import { QuestionTemplateController } from './question-template.controller';

/** REST for question banks, their items and question templates. */
@Module({
  imports: [QuestionBankCoreModule],
  controllers: [QuestionBankController, QuestionTemplateController],
})
export class QuestionBankModule {}
