import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { HistoryTurn } from '@lumina/rag';
import type {
  Conversation,
  ConversationDetail,
  ConversationMessage,
  Page,
  RetrievalTrace,
} from '@lumina/shared';
import { DataSource } from 'typeorm';
import type { EntityManager } from 'typeorm';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import { ConversationEntity } from './entities/conversation.entity';
import { MessageEntity } from './entities/message.entity';
import { RetrievalTraceEntity } from './entities/retrieval-trace.entity';

/** Longest conversation title (the first question, shortened). */
export const MAX_TITLE_CHARS = 80;
/** Earlier messages a follow-up question is rewritten with. */
export const HISTORY_MESSAGES = 10;

/** Conversations, messages and retrieval traces in the database. */
@Injectable()
export class ConversationService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The conversation if `ownerKeyId` owns it: another key's conversation is answered as missing. */
  async find(ownerKeyId: string, id: string): Promise<ConversationEntity | null> {
    return this.dataSource.getRepository(ConversationEntity).findOneBy({ id, ownerKeyId });
  }

  async require(ownerKeyId: string, id: string): Promise<ConversationEntity> {
    const conversation = await this.find(ownerKeyId, id);
    if (!conversation) throw new NotFoundException(`Conversation ${id} does not exist`);
    return conversation;
  }

  async create(ownerKeyId: string, firstQuestion: string): Promise<ConversationEntity> {
    const repository = this.dataSource.getRepository(ConversationEntity);
    return repository.save(repository.create({ title: titleFrom(firstQuestion), ownerKeyId }));
  }

  /** Store a message and mark the conversation as updated, in one transaction. */
  async addMessage(
    message: Partial<MessageEntity> & Pick<MessageEntity, 'conversationId' | 'role' | 'content'>,
    trace?: Omit<Partial<RetrievalTraceEntity>, 'messageId'>,
  ): Promise<MessageEntity> {
    return this.dataSource.transaction(async (manager: EntityManager) => {
      const saved = await manager.save(MessageEntity, manager.create(MessageEntity, message));
      if (trace) {
        await manager.save(
          RetrievalTraceEntity,
          manager.create(RetrievalTraceEntity, { ...trace, messageId: saved.id }),
        );
      }
      await manager.query(`UPDATE conversations SET updated_at = now() WHERE id = $1`, [
        message.conversationId,
      ]);
      return saved;
    });
  }

  async findMessage(id: string): Promise<MessageEntity | null> {
    return this.dataSource.getRepository(MessageEntity).findOneBy({ id });
  }

  /** The complete turns before the newest question, oldest first, for rewriting a follow-up. */
  async history(conversationId: string, limit = HISTORY_MESSAGES): Promise<HistoryTurn[]> {
    const rows = await this.dataSource.getRepository(MessageEntity).find({
      where: { conversationId, status: 'complete' },
      order: { seq: 'DESC' },
      take: limit,
    });
    return rows.reverse().map((row) => ({ role: row.role, content: row.content }));
  }

  /** True when an answer from general knowledge was already given to the question `userMessageId`. */
  async hasGeneralAnswer(userMessageId: string): Promise<boolean> {
    return this.dataSource
      .getRepository(MessageEntity)
      .existsBy({ replyToId: userMessageId, source: 'general-knowledge', status: 'complete' });
  }

  async list(ownerKeyId: string, query: { page?: number; limit?: number }): Promise<Page<Conversation>> {
    const window = pageWindow(query);
    const [{ total }] = await this.dataSource.query(
      `SELECT count(*)::int AS total FROM conversations WHERE owner_key_id = $1`,
      [ownerKeyId],
    );
    const rows: ConversationRow[] = await this.dataSource.query(
      `SELECT c.id, c.title, c.created_at, c.updated_at,
              (SELECT count(*)::int FROM messages m WHERE m.conversation_id = c.id) AS message_count
       FROM conversations c
       WHERE c.owner_key_id = $3
       ORDER BY c.updated_at DESC, c.id
       LIMIT $1 OFFSET $2`,
      [window.limit, window.offset, ownerKeyId],
    );
    return pageOf(rows.map(toConversation), total, window);
  }

  async detail(
    ownerKeyId: string,
    id: string,
    query: { page?: number; limit?: number },
  ): Promise<ConversationDetail> {
    const rows: ConversationRow[] = await this.dataSource.query(
      `SELECT c.id, c.title, c.created_at, c.updated_at,
              (SELECT count(*)::int FROM messages m WHERE m.conversation_id = c.id) AS message_count
       FROM conversations c WHERE c.id = $1 AND c.owner_key_id = $2`,
      [id, ownerKeyId],
    );
    if (rows.length === 0) throw new NotFoundException(`Conversation ${id} does not exist`);
    const conversation = toConversation(rows[0]);
    const window = pageWindow(query);
    const entities = await this.dataSource.getRepository(MessageEntity).find({
      where: { conversationId: id },
      order: { seq: 'ASC' },
      skip: window.offset,
      take: window.limit,
    });
    const traced: { message_id: string }[] = entities.length
      ? await this.dataSource.query(
          `SELECT message_id FROM retrieval_traces WHERE message_id = ANY($1::uuid[])`,
          [entities.map((entity) => entity.id)],
        )
      : [];
    const withTrace = new Set(traced.map((row) => row.message_id));
    const items = entities.map((entity) => toMessage(entity, withTrace.has(entity.id)));
    return { ...conversation, messages: pageOf(items, conversation.messageCount, window) };
  }

  async rename(ownerKeyId: string, id: string, title: string): Promise<Conversation> {
    const result = await this.dataSource
      .getRepository(ConversationEntity)
      .update({ id, ownerKeyId }, { title: title.trim() });
    if (!result.affected) throw new NotFoundException(`Conversation ${id} does not exist`);
    const { messages: _messages, ...conversation } = await this.detail(ownerKeyId, id, { page: 1, limit: 1 });
    return conversation;
  }

  async delete(ownerKeyId: string, id: string): Promise<void> {
    const result = await this.dataSource.getRepository(ConversationEntity).delete({ id, ownerKeyId });
    if (!result.affected) throw new NotFoundException(`Conversation ${id} does not exist`);
  }

  /** The trace of an answer in a conversation of `ownerKeyId` (another key's: 404, like a missing one). */
  async trace(ownerKeyId: string, messageId: string): Promise<RetrievalTrace> {
    const message = await this.findMessage(messageId);
    const owned = message ? await this.find(ownerKeyId, message.conversationId) : null;
    const trace = owned
      ? await this.dataSource.getRepository(RetrievalTraceEntity).findOneBy({ messageId })
      : null;
    if (!trace) {
      throw new NotFoundException(
        owned
          ? `Message ${messageId} is a question; only answers have a retrieval trace`
          : `Message ${messageId} does not exist`,
      );
    }
    return toTrace(trace);
  }
}

interface ConversationRow {
  id: string;
  title: string;
  created_at: Date;
  updated_at: Date;
  message_count: number;
}

function toConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    title: row.title,
    messageCount: row.message_count,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export function toMessage(entity: MessageEntity, hasTrace: boolean): ConversationMessage {
  return {
    id: entity.id,
    conversationId: entity.conversationId,
    role: entity.role,
    content: entity.content,
    status: entity.status,
    replyToId: entity.replyToId,
    source: entity.source,
    generator: entity.generator,
    notFound: entity.notFound,
    citations: entity.citations,
    droppedMarkers: entity.droppedMarkers,
    uncited: entity.uncited,
    model: entity.model,
    usage: entity.usage,
    error: entity.error,
    hasTrace,
    createdAt: entity.createdAt.toISOString(),
  };
}

function toTrace(entity: RetrievalTraceEntity): RetrievalTrace {
  return {
    id: entity.id,
    messageId: entity.messageId,
    query: entity.query,
    standaloneQuery: entity.standaloneQuery,
    rewrite: entity.rewrite,
    settings: entity.settings,
    expansions: entity.expansions,
    hyde: entity.hyde,
    adaptive: entity.adaptive ?? null,
    belowThreshold: entity.belowThreshold,
    answerability: entity.answerability ?? null,
    retrieved: entity.retrieved,
    promptVersion: entity.promptVersion,
    model: entity.model,
    generator: entity.generator,
    source: entity.source,
    usage: entity.usage,
    timings: entity.timings,
    notFound: entity.notFound,
    uncited: entity.uncited,
    droppedMarkers: entity.droppedMarkers,
    warnings: entity.warnings,
    createdAt: entity.createdAt.toISOString(),
  };
}

function titleFrom(question: string): string {
  const flat = question.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_TITLE_CHARS ? `${flat.slice(0, MAX_TITLE_CHARS - 1).trimEnd()}…` : flat;
}
