import { QuestionBankItemEntity } from './entities/question-bank-item.entity';
import { QuestionBankEntity } from './entities/question-bank.entity';
import { QuestionTemplateEntity } from './entities/question-template.entity';

/** The question-bank module's tables: templates, banks and their items. */
export const QUESTION_BANK_ENTITIES = [QuestionTemplateEntity, QuestionBankEntity, QuestionBankItemEntity];
