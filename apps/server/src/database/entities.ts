import { ApiKeyEntity } from '../modules/auth/entities/api-key.entity';
import { ConversationEntity } from '../modules/chat/entities/conversation.entity';
import { MessageEntity } from '../modules/chat/entities/message.entity';
import { RetrievalTraceEntity } from '../modules/chat/entities/retrieval-trace.entity';
import { AblationEntity } from '../modules/evaluation/entities/ablation.entity';
import { EvalRunEntity } from '../modules/evaluation/entities/eval-run.entity';
import { ChunkEntity } from '../modules/ingestion/entities/chunk.entity';
import { DocumentEntity } from '../modules/ingestion/entities/document.entity';
import { QuestionBankItemEntity } from '../modules/question-bank/entities/question-bank-item.entity';
import { QuestionBankEntity } from '../modules/question-bank/entities/question-bank.entity';
import { QuestionTemplateEntity } from '../modules/question-bank/entities/question-template.entity';

/** Every TypeORM entity, registered once for the API, the worker and the CLIs. */
export const ENTITIES = [
  DocumentEntity,
  ChunkEntity,
  QuestionTemplateEntity,
  QuestionBankEntity,
  QuestionBankItemEntity,
  EvalRunEntity,
  AblationEntity,
  ConversationEntity,
  MessageEntity,
  RetrievalTraceEntity,
  ApiKeyEntity,
];
