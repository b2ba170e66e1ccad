import { Injectable } from '@nestjs/common';
import type { HistoryTurn } from '@lumina/rag';
import { resolveSettings } from '@lumina/shared';
import type {
  Conversation,
  ConversationDetail,
  ConversationMessage,
  Page,
  RetrievalTrace,
} from '@lumina/shared';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import type { ConversationEntity } from './entities/conversation.entity';
import type { MessageEntity } from './entities/message.entity';
import type { RetrievalTraceEntity } from './entities/retrieval-trace.entity';
import { ConversationRepository } from './repositories/conversation.repository';
import type { ConversationRow, NewMessage, NewTrace } from './repositories/conversation.repository';
import { InvalidRequestError, NotFoundError } from '../../common/errors/domain-errors';
import { conversationMarkdown, exportFileName, MAX_CONVERSATION_TITLE_CHARS } from '@lumina/shared';

/** Longest conversation title (the first question, shortened). */
export const MAX_TITLE_CHARS = MAX_CONVERSATION_TITLE_CHARS;
/** Earlier messages a follow-up question is rewritten with. */
export const HISTORY_MESSAGES = 10;

/** Conversations, messages and retrieval traces: who may see them, and their API shapes. */
@Injectable()
export class ConversationService {
  constructor(private readonly conversations: ConversationRepository) {}

  /** The conversation if `ownerKeyId` owns it: another key's conversation is answered as missing. */
  async find(ownerKeyId: string, id: string): Promise<ConversationEntity | null> {
    return this.conversations.find(ownerKeyId, id);
  }

  async require(ownerKeyId: string, id: string): Promise<ConversationEntity> {
    const conversation = await this.find(ownerKeyId, id);
    if (!conversation) throw new NotFoundError(`Conversation ${id} does not exist`);
    return conversation;
  }

  async create(
    ownerKeyId: string,
    firstQuestion: string,
    collectionIds: string[] = [],
  ): Promise<ConversationEntity> {
    return this.conversations.create(ownerKeyId, titleFrom(firstQuestion), collectionIds);
  }

  /** A follow-up that named other collections: the conversation searches those from now on. */
  async setCollections(id: string, collectionIds: string[]): Promise<void> {
    await this.conversations.setCollections(id, collectionIds);
  }

  /** Store a message and mark the conversation as updated, in one transaction. */
  async addMessage(message: NewMessage, trace?: NewTrace): Promise<MessageEntity> {
    return this.conversations.addMessage(message, trace);
  }

  async findMessage(id: string): Promise<MessageEntity | null> {
    return this.conversations.findMessage(id);
  }

  /**
   * The complete turns before the newest question, oldest first, for rewriting a follow-up; an answer
   * that cited passages carries their text (in citing order; passages deleted since are left out).
   */
  async history(conversationId: string, limit = HISTORY_MESSAGES): Promise<HistoryTurn[]> {
    const rows = (await this.conversations.latestComplete(conversationId, limit)).reverse();
    const cited = rows.flatMap((row) =>
      row.role === 'assistant' ? row.citations.map((c) => c.chunkId) : [],
    );
    const texts = await this.conversations.passageTexts([...new Set(cited)]);
    return rows.map((row): HistoryTurn => {
      const turn = { role: row.role, content: row.content };
      if (row.role !== 'assistant' || row.citations.length === 0) return turn;
      return { ...turn, citedPassages: row.citations.flatMap((c) => texts.get(c.chunkId) ?? []) };
    });
  }

  /**
   * The owner's conversation whose complete messages are exactly `turns` (role and text, in order, none
   * after): what a client that resends the whole conversation with each question (the OpenAI API) asks
   * to continue. Null when there is none.
   */
  async continuedBy(
    ownerKeyId: string,
    turns: readonly { role: 'user' | 'assistant'; content: string }[],
  ): Promise<ConversationEntity | null> {
    const lastAnswer = turns.at(-1);
    if (!lastAnswer || lastAnswer.role !== 'assistant') return null;
    for (const id of await this.conversations.answeredWith(ownerKeyId, lastAnswer.content, 3)) {
      const rows = (await this.conversations.latestComplete(id, turns.length + 1)).reverse();
      const same =
        rows.length === turns.length &&
        rows.every((row, i) => row.role === turns[i].role && row.content.trim() === turns[i].content);
      if (same) return this.conversations.find(ownerKeyId, id);
    }
    return null;
  }

  /** True when an answer from general knowledge was already given to the question `userMessageId`. */
  async hasGeneralAnswer(userMessageId: string): Promise<boolean> {
    return this.conversations.hasGeneralAnswer(userMessageId);
  }

  /** The retrieval trace of an answer (null for a question, or an answer stored without one). */
  async findTrace(messageId: string): Promise<RetrievalTraceEntity | null> {
    return this.conversations.findTrace(messageId);
  }

  /** The owner's conversations, most recently active first; with `q`, those holding it in title or text. */
  async list(
    ownerKeyId: string,
    query: { page?: number; limit?: number; q?: string },
  ): Promise<Page<Conversation>> {
    const window = pageWindow(query);
    const text = query.q?.trim();
    const [total, rows] = text
      ? await Promise.all([
          this.conversations.countMatching(ownerKeyId, text),
          this.conversations.search(ownerKeyId, text, window.offset, window.limit),
        ])
      : await Promise.all([
          this.conversations.count(ownerKeyId),
          this.conversations.page(ownerKeyId, window.offset, window.limit),
        ]);
    return pageOf(rows.map(toConversation), total, window);
  }

  /** The whole conversation as Markdown, each answer with its sources. */
  async exportMarkdown(ownerKeyId: string, id: string): Promise<{ fileName: string; markdown: string }> {
    const conversation = await this.summary(ownerKeyId, id);
    const messages = await this.conversations.messages(id, 0, Math.max(conversation.messageCount, 1));
    return {
      fileName: exportFileName(conversation.title),
      markdown: conversationMarkdown({
        title: conversation.title,
        createdAt: conversation.createdAt,
        messages,
      }),
    };
  }

  /**
   * The question a regenerated or edited ask replaces: it must be a question of this conversation. It
   * and everything after it are deleted when the new ask starts (truncateFrom).
   */
  async requireQuestion(conversationId: string, messageId: string): Promise<MessageEntity> {
    const message = await this.conversations.findMessage(messageId);
    if (!message || message.conversationId !== conversationId) {
      throw new NotFoundError(`Message ${messageId} is not in conversation ${conversationId}`);
    }
    if (message.role !== 'user') {
      throw new InvalidRequestError('replaceMessageId must name a question (a user message), not an answer');
    }
    return message;
  }

  /** Deletes the question and every later message of its conversation. */
  async truncateFrom(conversationId: string, questionId: string): Promise<void> {
    await this.conversations.truncateFrom(conversationId, questionId);
  }

  async detail(
    ownerKeyId: string,
    id: string,
    query: { page?: number; limit?: number },
  ): Promise<ConversationDetail> {
    const conversation = await this.summary(ownerKeyId, id);
    const window = pageWindow(query);
    const entities = await this.conversations.messages(id, window.offset, window.limit);
    const ids = entities.map((entity) => entity.id);
    const [withTrace, ratings] = await Promise.all([
      this.conversations.traced(ids),
      this.conversations.ratings(ids, ownerKeyId),
    ]);
    const items = entities.map((entity) =>
      toMessage(entity, withTrace.has(entity.id), ratings.get(entity.id) ?? null),
    );
    return { ...conversation, messages: pageOf(items, conversation.messageCount, window) };
  }

  async rename(ownerKeyId: string, id: string, title: string): Promise<Conversation> {
    if (!(await this.conversations.rename(ownerKeyId, id, title.trim()))) {
      throw new NotFoundError(`Conversation ${id} does not exist`);
    }
    return this.summary(ownerKeyId, id);
  }

  async delete(ownerKeyId: string, id: string): Promise<void> {
    if (!(await this.conversations.delete(ownerKeyId, id))) {
      throw new NotFoundError(`Conversation ${id} does not exist`);
    }
  }

  /** The trace of an answer in a conversation of `ownerKeyId` (another key's: 404, like a missing one). */
  async trace(ownerKeyId: string, messageId: string): Promise<RetrievalTrace> {
    const message = await this.findMessage(messageId);
    const owned = message ? await this.find(ownerKeyId, message.conversationId) : null;
    const trace = owned ? await this.findTrace(messageId) : null;
    if (!trace) {
      throw new NotFoundError(
        owned
          ? `Message ${messageId} is a question; only answers have a retrieval trace`
          : `Message ${messageId} does not exist`,
      );
    }
    return toTrace(trace);
  }

  /** The conversation with its message count, or 404. */
  private async summary(ownerKeyId: string, id: string): Promise<Conversation> {
    const row = await this.conversations.summary(ownerKeyId, id);
    if (!row) throw new NotFoundError(`Conversation ${id} does not exist`);
    return toConversation(row);
  }
}

function toConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    title: row.title,
    collectionIds: row.collection_ids,
    messageCount: row.message_count,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export function toMessage(
  entity: MessageEntity,
  hasTrace: boolean,
  feedback: ConversationMessage['feedback'] = null,
): ConversationMessage {
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
    feedback,
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
    rewriteReason: entity.rewriteReason ?? null,
    // Stored with the settings of its day: a setting added since reads as its default.
    settings: entity.settings ? resolveSettings(entity.settings) : null,
    collectionIds: entity.collectionIds,
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
