import { ConversationEntity } from './entities/conversation.entity';
import { MessageEntity } from './entities/message.entity';
import { RetrievalTraceEntity } from './entities/retrieval-trace.entity';

/** The chat module's tables: conversations, messages and the answers' retrieval traces. */
export const CHAT_ENTITIES = [ConversationEntity, MessageEntity, RetrievalTraceEntity];
