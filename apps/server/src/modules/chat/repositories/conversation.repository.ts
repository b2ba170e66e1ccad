import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { ConversationEntity } from '../entities/conversation.entity';
import { MessageEntity } from '../entities/message.entity';
import { RetrievalTraceEntity } from '../entities/retrieval-trace.entity';
import {
  CITED_PASSAGES_SQL,
  CONVERSATION_PAGE_SQL,
  CONVERSATION_SEARCH_COUNT_SQL,
  CONVERSATION_SEARCH_SQL,
  CONVERSATION_SQL,
  CONVERSATIONS_ANSWERED_WITH_SQL,
} from './conversations.sql';

/** A conversation as lists and details show it. */
export interface ConversationRow {
  id: string;
  title: string;
  collection_ids: string[];
  created_at: Date;
  updated_at: Date;
  message_count: number;
}

export type NewMessage = Partial<MessageEntity> & Pick<MessageEntity, 'conversationId' | 'role' | 'content'>;
export type NewTrace = Omit<Partial<RetrievalTraceEntity>, 'messageId'>;

/** Conversations, their messages and the answers' retrieval traces. */
@Injectable()
export class ConversationRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  /** The conversation if `ownerKeyId` owns it. */
  find(ownerKeyId: string, id: string): Promise<ConversationEntity | null> {
    return this.manager.getRepository(ConversationEntity).findOneBy({ id, ownerKeyId });
  }

  create(ownerKeyId: string, title: string, collectionIds: string[]): Promise<ConversationEntity> {
    const repository = this.manager.getRepository(ConversationEntity);
    return repository.save(repository.create({ title, ownerKeyId, collectionIds }));
  }

  /** The collections a conversation's questions search from now on. */
  async setCollections(id: string, collectionIds: string[]): Promise<void> {
    await this.manager.query(`UPDATE conversations SET collection_ids = $2::uuid[] WHERE id = $1`, [
      id,
      collectionIds,
    ]);
  }

  /** The conversation with its message count if `ownerKeyId` owns it. */
  async summary(ownerKeyId: string, id: string): Promise<ConversationRow | null> {
    const rows: ConversationRow[] = await this.manager.query(CONVERSATION_SQL, [id, ownerKeyId]);
    return rows[0] ?? null;
  }

  async count(ownerKeyId: string): Promise<number> {
    const [{ total }]: { total: number }[] = await this.manager.query(
      `SELECT count(*)::int AS total FROM conversations WHERE owner_key_id = $1`,
      [ownerKeyId],
    );
    return total;
  }

  /** The owner's conversations, most recently updated first. */
  page(ownerKeyId: string, offset: number, limit: number): Promise<ConversationRow[]> {
    return this.manager.query(CONVERSATION_PAGE_SQL, [limit, offset, ownerKeyId]);
  }

  /** How many of the owner's conversations hold `text` in their title or a message (case-insensitive). */
  async countMatching(ownerKeyId: string, text: string): Promise<number> {
    const [{ total }]: { total: number }[] = await this.manager.query(CONVERSATION_SEARCH_COUNT_SQL, [
      ownerKeyId,
      containsPattern(text),
    ]);
    return total;
  }

  /** The owner's conversations holding `text` in their title or a message, most recently updated first. */
  search(ownerKeyId: string, text: string, offset: number, limit: number): Promise<ConversationRow[]> {
    return this.manager.query(CONVERSATION_SEARCH_SQL, [limit, offset, ownerKeyId, containsPattern(text)]);
  }

  /**
   * Deletes the question `questionId` and every message written after it in its conversation (their
   * traces follow): what is left is the history a regenerated or edited question is asked with.
   */
  async truncateFrom(conversationId: string, questionId: string): Promise<void> {
    await this.manager.query(
      `DELETE FROM messages
       WHERE conversation_id = $1
         AND seq >= (SELECT seq FROM messages WHERE id = $2 AND conversation_id = $1)`,
      [conversationId, questionId],
    );
  }

  /** Renames the owner's conversation; false when it has none with this id. */
  async rename(ownerKeyId: string, id: string, title: string): Promise<boolean> {
    const result = await this.manager.getRepository(ConversationEntity).update({ id, ownerKeyId }, { title });
    return Boolean(result.affected);
  }

  /** Deletes the owner's conversation (its messages and traces follow); false when there is none. */
  async delete(ownerKeyId: string, id: string): Promise<boolean> {
    const result = await this.manager.getRepository(ConversationEntity).delete({ id, ownerKeyId });
    return Boolean(result.affected);
  }

  /** Stores a message (and an answer's trace) and marks the conversation as updated, in one transaction. */
  addMessage(message: NewMessage, trace?: NewTrace): Promise<MessageEntity> {
    return this.manager.transaction(async (manager) => {
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

  findMessage(id: string): Promise<MessageEntity | null> {
    return this.manager.getRepository(MessageEntity).findOneBy({ id });
  }

  /** The conversation's messages in order, `limit` from `offset`. */
  messages(conversationId: string, offset: number, limit: number): Promise<MessageEntity[]> {
    return this.manager.getRepository(MessageEntity).find({
      where: { conversationId },
      order: { seq: 'ASC' },
      skip: offset,
      take: limit,
    });
  }

  /** The newest `limit` complete messages, newest first. */
  latestComplete(conversationId: string, limit: number): Promise<MessageEntity[]> {
    return this.manager.getRepository(MessageEntity).find({
      where: { conversationId, status: 'complete' },
      order: { seq: 'DESC' },
      take: limit,
    });
  }

  /** The owner's conversations (newest first, at most `limit`) with a complete answer of exactly this text. */
  async answeredWith(ownerKeyId: string, content: string, limit: number): Promise<string[]> {
    const rows: { conversation_id: string }[] = await this.manager.query(CONVERSATIONS_ANSWERED_WITH_SQL, [
      ownerKeyId,
      content,
      limit,
    ]);
    return rows.map((row) => row.conversation_id);
  }

  /** The text of these chunks, by id (chunks deleted since, with their document, are left out). */
  async passageTexts(chunkIds: readonly string[]): Promise<Map<string, string>> {
    if (chunkIds.length === 0) return new Map();
    const rows: { id: string; text: string }[] = await this.manager.query(CITED_PASSAGES_SQL, [chunkIds]);
    return new Map(rows.map((row) => [row.id, row.text]));
  }

  /** True when a complete answer from general knowledge replies to the question. */
  hasGeneralAnswer(userMessageId: string): Promise<boolean> {
    return this.manager
      .getRepository(MessageEntity)
      .existsBy({ replyToId: userMessageId, source: 'general-knowledge', status: 'complete' });
  }

  /** Of these messages, the ones with a retrieval trace. */
  async traced(messageIds: string[]): Promise<Set<string>> {
    if (messageIds.length === 0) return new Set();
    const rows: { message_id: string }[] = await this.manager.query(
      `SELECT message_id FROM retrieval_traces WHERE message_id = ANY($1::uuid[])`,
      [messageIds],
    );
    return new Set(rows.map((row) => row.message_id));
  }

  /** The ratings key `keyId` gave these messages, by message id. */
  async ratings(messageIds: string[], keyId: string): Promise<Map<string, MessageRating>> {
    if (messageIds.length === 0) return new Map();
    const rows: (MessageRating & { message_id: string })[] = await this.manager.query(
      `SELECT message_id, rating, reasons, note FROM message_feedback
       WHERE message_id = ANY($1::uuid[]) AND key_id = $2::uuid`,
      [messageIds, keyId],
    );
    return new Map(rows.map(({ message_id, ...rating }) => [message_id, rating]));
  }

  findTrace(messageId: string): Promise<RetrievalTraceEntity | null> {
    return this.manager.getRepository(RetrievalTraceEntity).findOneBy({ messageId });
  }
}

/** A key's rating of a message, as the conversation shows it. */
export interface MessageRating {
  rating: 'up' | 'down';
  reasons: string[];
  note: string | null;
}

/** An ILIKE pattern matching `text` anywhere, its own `%`, `_` and backslash taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
