import { randomUUID } from 'node:crypto';
import type { ConversationEntity } from '../entities/conversation.entity';
import type { MessageEntity } from '../entities/message.entity';
import type { RetrievalTraceEntity } from '../entities/retrieval-trace.entity';
import type {
  ConversationRepository,
  ConversationRow,
  MessageRating,
  NewMessage,
  NewTrace,
} from '../repositories/conversation.repository';

/** ConversationRepository in memory, for service tests: the same answers, without a database. */
export class InMemoryConversationRepository implements Pick<
  ConversationRepository,
  keyof ConversationRepository
> {
  readonly conversations: ConversationEntity[] = [];
  readonly messageRows: MessageEntity[] = [];
  readonly traces: RetrievalTraceEntity[] = [];
  /** Chunk texts by id, as the chunks table holds them (tests fill it). */
  readonly passages = new Map<string, string>();
  private clock = Date.parse('2025-01-01T00:00:00Z');
  private seq = 0;

  async find(ownerKeyId: string, id: string): Promise<ConversationEntity | null> {
    return this.conversations.find((c) => c.id === id && c.ownerKeyId === ownerKeyId) ?? null;
  }

  async create(ownerKeyId: string, title: string, collectionIds: string[] = []): Promise<ConversationEntity> {
    const now = this.tick();
    const conversation = {
      id: randomUUID(),
      title,
      ownerKeyId,
      collectionIds,
      createdAt: now,
      updatedAt: now,
    };
    this.conversations.push(conversation);
    return conversation;
  }

  async setCollections(id: string, collectionIds: string[]): Promise<void> {
    const conversation = this.conversations.find((c) => c.id === id);
    if (conversation) conversation.collectionIds = collectionIds;
  }

  async summary(ownerKeyId: string, id: string): Promise<ConversationRow | null> {
    const conversation = await this.find(ownerKeyId, id);
    return conversation ? this.row(conversation) : null;
  }

  async count(ownerKeyId: string): Promise<number> {
    return this.conversations.filter((c) => c.ownerKeyId === ownerKeyId).length;
  }

  async page(ownerKeyId: string, offset: number, limit: number): Promise<ConversationRow[]> {
    return this.conversations
      .filter((c) => c.ownerKeyId === ownerKeyId)
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? -1 : 1))
      .slice(offset, offset + limit)
      .map((c) => this.row(c));
  }

  async countMatching(ownerKeyId: string, text: string): Promise<number> {
    return this.matching(ownerKeyId, text).length;
  }

  async search(ownerKeyId: string, text: string, offset: number, limit: number): Promise<ConversationRow[]> {
    return this.matching(ownerKeyId, text)
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? -1 : 1))
      .slice(offset, offset + limit)
      .map((c) => this.row(c));
  }

  async truncateFrom(conversationId: string, questionId: string): Promise<void> {
    const question = this.messageRows.find((m) => m.id === questionId && m.conversationId === conversationId);
    if (!question) return;
    const kept = this.messageRows.filter((m) => m.conversationId !== conversationId || m.seq < question.seq);
    this.messageRows.splice(0, this.messageRows.length, ...kept);
  }

  private matching(ownerKeyId: string, text: string): ConversationEntity[] {
    const needle = text.toLowerCase();
    return this.conversations.filter(
      (c) =>
        c.ownerKeyId === ownerKeyId &&
        (c.title.toLowerCase().includes(needle) ||
          this.messageRows.some(
            (m) => m.conversationId === c.id && m.content.toLowerCase().includes(needle),
          )),
    );
  }

  async rename(ownerKeyId: string, id: string, title: string): Promise<boolean> {
    const conversation = await this.find(ownerKeyId, id);
    if (conversation) conversation.title = title;
    return conversation !== null;
  }

  async delete(ownerKeyId: string, id: string): Promise<boolean> {
    const at = this.conversations.findIndex((c) => c.id === id && c.ownerKeyId === ownerKeyId);
    if (at === -1) return false;
    this.conversations.splice(at, 1);
    return true;
  }

  async addMessage(message: NewMessage, trace?: NewTrace): Promise<MessageEntity> {
    const saved = {
      id: randomUUID(),
      seq: ++this.seq,
      status: 'complete',
      replyToId: null,
      source: null,
      generator: null,
      notFound: false,
      citations: [],
      droppedMarkers: [],
      uncited: false,
      model: null,
      usage: null,
      error: null,
      createdAt: this.tick(),
      ...message,
    } as MessageEntity;
    this.messageRows.push(saved);
    if (trace) this.traces.push({ ...trace, messageId: saved.id } as RetrievalTraceEntity);
    const conversation = this.conversations.find((c) => c.id === message.conversationId);
    if (conversation) conversation.updatedAt = this.tick();
    return saved;
  }

  async findMessage(id: string): Promise<MessageEntity | null> {
    return this.messageRows.find((m) => m.id === id) ?? null;
  }

  async messages(conversationId: string, offset: number, limit: number): Promise<MessageEntity[]> {
    return this.messageRows.filter((m) => m.conversationId === conversationId).slice(offset, offset + limit);
  }

  async latestComplete(conversationId: string, limit: number): Promise<MessageEntity[]> {
    return this.messageRows
      .filter((m) => m.conversationId === conversationId && m.status === 'complete')
      .reverse()
      .slice(0, limit);
  }

  async answeredWith(ownerKeyId: string, content: string, limit: number): Promise<string[]> {
    const owned = new Set(this.conversations.filter((c) => c.ownerKeyId === ownerKeyId).map((c) => c.id));
    return this.messageRows
      .filter(
        (m) =>
          owned.has(m.conversationId) &&
          m.role === 'assistant' &&
          m.status === 'complete' &&
          m.content === content,
      )
      .reverse()
      .map((m) => m.conversationId)
      .slice(0, limit);
  }

  async passageTexts(chunkIds: readonly string[]): Promise<Map<string, string>> {
    return new Map(chunkIds.flatMap((id) => (this.passages.has(id) ? [[id, this.passages.get(id)!]] : [])));
  }

  async hasGeneralAnswer(userMessageId: string): Promise<boolean> {
    return this.messageRows.some(
      (m) => m.replyToId === userMessageId && m.source === 'general-knowledge' && m.status === 'complete',
    );
  }

  async traced(messageIds: string[]): Promise<Set<string>> {
    return new Set(this.traces.map((t) => t.messageId).filter((id) => messageIds.includes(id)));
  }

  /** No ratings are kept in memory. */
  async ratings(): Promise<Map<string, MessageRating>> {
    return new Map();
  }

  async findTrace(messageId: string): Promise<RetrievalTraceEntity | null> {
    return this.traces.find((t) => t.messageId === messageId) ?? null;
  }

  private row(conversation: ConversationEntity): ConversationRow {
    return {
      id: conversation.id,
      title: conversation.title,
      collection_ids: conversation.collectionIds,
      created_at: conversation.createdAt,
      updated_at: conversation.updatedAt,
      message_count: this.messageRows.filter((m) => m.conversationId === conversation.id).length,
    };
  }

  private tick(): Date {
    this.clock += 1000;
    return new Date(this.clock);
  }
}
