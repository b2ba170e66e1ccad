import { AUTH_ENTITIES } from './modules/auth/auth.entities';
import { CHAT_ENTITIES } from './modules/chat/chat.entities';
import { EVALUATION_ENTITIES } from './modules/evaluation/evaluation.entities';
import { INGESTION_ENTITIES } from './modules/ingestion/ingestion.entities';
import { QUESTION_BANK_ENTITIES } from './modules/question-bank/question-bank.entities';
import { RERANKER_ENTITIES } from './modules/reranker/reranker.entities';
import { SOURCE_ENTITIES } from './modules/sources/sources.entities';

/**
 * Every TypeORM entity, composed from each module's list and handed to the data source by its opener
 * (the API, the worker, the CLIs): the database layer itself knows no module.
 */
export const ENTITIES = [
  ...INGESTION_ENTITIES,
  ...QUESTION_BANK_ENTITIES,
  ...EVALUATION_ENTITIES,
  ...CHAT_ENTITIES,
  ...AUTH_ENTITIES,
  ...RERANKER_ENTITIES,
  ...SOURCE_ENTITIES,
];
