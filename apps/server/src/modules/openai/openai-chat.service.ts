import { Injectable } from '@nestjs/common';
import {
  collectionModelId,
  contentWithoutSources,
  MAX_CHAT_MESSAGE_CHARS,
  messageText,
  OPENAI_LIBRARY_MODEL,
  parseModelId,
  sourcesBlock,
} from '@lumina/shared';
import type {
  LuminaCompletion,
  OpenAiChatRequest,
  OpenAiModel,
  OpenAiModelList,
  OpenAiUsage,
} from '@lumina/shared';
import { canRead, readableIds } from '../auth/principal';
import type { CollectionAccess } from '../auth/principal';
import { ChatService } from '../chat/chat.service';
import { sameIds } from '../chat/chat.service';
import type { PreparedChat } from '../chat/chat.service';
import { ChatAnswerCollector } from '../chat/chat-answer';
import type { ChatAnswer } from '../chat/chat-answer';
import { ConversationService } from '../chat/conversation.service';
import { CollectionScope } from '../collections/collection-scope.service';
import { CollectionRepository } from '../collections/repositories/collection.repository';
import { InvalidRequestError, NotFoundError } from '../../common/errors/domain-errors';

/** The most earlier messages a new conversation is given from a request's history. */
export const SEEDED_HISTORY_MESSAGES = 50;

/** What a completion request asks, checked before any answer is written (so mistakes are plain 4xx). */
export interface PreparedCompletion {
  model: string;
  chat: PreparedChat;
  /** The user and assistant messages before the question (sources lists removed), oldest first. */
  history: { role: 'user' | 'assistant'; content: string }[];
  stream: boolean;
  includeUsage: boolean;
}

/**
 * POST /v1/chat/completions and GET /v1/models over the chat: a model names what is searched (`lumina`:
 * every collection the key reads; `lumina:<slug>`: one), the last user message is the question, and the
 * messages before it are the conversation. A request that continues a conversation this key had through
 * the endpoint (its messages are that conversation's, in order) continues it; any other history becomes a
 * new conversation holding those messages, so the question is rewritten from them as in the chat, and the
 * answer, its trace and its citations are stored like every chat answer.
 */
@Injectable()
export class OpenAiChatService {
  private readonly startedAt = Math.floor(Date.now() / 1000);

  constructor(
    private readonly chat: ChatService,
    private readonly conversations: ConversationService,
    private readonly scope: CollectionScope,
    private readonly collections: CollectionRepository,
  ) {}

  /** `lumina`, then one model per collection the key reads (oldest first). */
  async models(access: CollectionAccess): Promise<OpenAiModelList> {
    const library: OpenAiModel = {
      id: OPENAI_LIBRARY_MODEL,
      object: 'model',
      created: this.startedAt,
      owned_by: 'lumina',
      lumina: {
        collectionId: null,
        name: 'Every collection',
        description: 'Answers from every collection this key may read.',
      },
    };
    const data = [library];
    const readable = readableIds(access);
    for (let offset = 0; ; offset += 100) {
      const rows = await this.collections.page(null, readable, offset, 100);
      for (const row of rows) {
        if (row.deleting) continue;
        data.push({
          id: collectionModelId(row.slug),
          object: 'model',
          created: Math.floor(new Date(row.created_at).getTime() / 1000),
          owned_by: 'lumina',
          lumina: { collectionId: row.id, name: row.name, description: row.description },
        });
      }
      if (rows.length < 100) break;
    }
    return { object: 'list', data };
  }

  /** The checks before an answer: the model, the question, the history, the collections. */
  async prepare(
    ownerKeyId: string,
    access: CollectionAccess,
    body: OpenAiChatRequest,
  ): Promise<PreparedCompletion> {
    const collectionIds = await this.collectionsOf(access, body.model);
    const turns = body.messages.filter((message) => message.role === 'user' || message.role === 'assistant');
    const last = turns.at(-1);
    if (!last || last.role !== 'user') {
      throw new InvalidRequestError('the last message must be the user’s question (role "user")');
    }
    const question = messageText(last).trim();
    if (!question) throw new InvalidRequestError('the last user message must contain words, not only spaces');
    if (question.length > MAX_CHAT_MESSAGE_CHARS) {
      throw new InvalidRequestError(
        `the question (the last user message) must be at most ${MAX_CHAT_MESSAGE_CHARS} characters long`,
      );
    }
    const history = turns
      .slice(0, -1)
      .map((message) => ({
        role: message.role as 'user' | 'assistant',
        content: (message.role === 'assistant'
          ? contentWithoutSources(messageText(message))
          : messageText(message)
        ).trim(),
      }))
      .filter((message) => message.content.length > 0);
    const chat = await this.chat.prepareChat(ownerKeyId, access, {
      message: question,
      settings: body.lumina?.settings,
      collectionIds,
    });
    return {
      model: body.model,
      chat,
      history,
      stream: body.stream === true,
      includeUsage: body.stream_options?.include_usage === true,
    };
  }

  /**
   * Answers the prepared question: continues the conversation the history is, or stores the history as a
   * new one, then runs the chat's answer. Resolves with the answer, or rejects with ChatAnswerFailed.
   */
  async complete(
    prepared: PreparedCompletion,
    signal: AbortSignal,
    onText?: (text: string) => void,
  ): Promise<ChatAnswer> {
    const chat = await this.withConversation(prepared);
    const collector = new ChatAnswerCollector(signal, onText);
    try {
      await this.chat.streamChat(chat, collector);
    } catch (error) {
      this.chat.reportUnexpected(error, collector);
    }
    return collector.answer();
  }

  /** Settles the conversation: the one the history continues, else a new one holding the history. */
  private async withConversation(prepared: PreparedCompletion): Promise<PreparedChat> {
    const chat = prepared.chat;
    if (prepared.history.length === 0) return chat;
    const continued = await this.conversations.continuedBy(chat.ownerKeyId, prepared.history);
    if (continued) {
      return {
        ...chat,
        conversation: continued,
        changesCollections: !sameIds(continued.collectionIds, chat.scope.collectionIds),
      };
    }
    const seeded = prepared.history.slice(-SEEDED_HISTORY_MESSAGES);
    const conversation = await this.conversations.create(
      chat.ownerKeyId,
      seeded.find((turn) => turn.role === 'user')?.content ?? chat.message,
      chat.scope.collectionIds,
    );
    for (const turn of seeded) {
      await this.conversations.addMessage({
        conversationId: conversation.id,
        role: turn.role,
        content: turn.content,
        ...(turn.role === 'assistant' ? { source: 'documents' as const } : {}),
      });
    }
    return { ...chat, conversation, changesCollections: false };
  }

  /** The collections a model searches: every readable one, or the one its slug names. */
  private async collectionsOf(access: CollectionAccess, model: string): Promise<string[]> {
    const parsed = parseModelId(model);
    const unknown = () =>
      new NotFoundError(
        `The model "${model}" does not exist: use "${OPENAI_LIBRARY_MODEL}" or one GET /v1/models lists`,
      );
    if (!parsed) throw unknown();
    if (parsed.all) return (await this.scope.searchable(access)).collectionIds;
    const state = await this.collections.stateBySlug(parsed.slug);
    if (!state || state.deleting || !canRead(access, state.id)) throw unknown();
    return [state.id];
  }
}

/** The extension field of a completion: the answer's structure. */
export function luminaField(result: ChatAnswer): LuminaCompletion {
  return {
    conversationId: result.conversationId,
    messageId: result.messageId,
    trace: `/messages/${result.messageId}/trace`,
    notFound: result.notFound,
    generator: result.generator,
    citations: result.citations,
    standaloneQuery: result.standaloneQuery,
  };
}

/** The language model's tokens in OpenAI's shape (0 when no model wrote the answer). */
export function usageOf(result: ChatAnswer): OpenAiUsage {
  const prompt = result.usage?.promptTokens ?? 0;
  const completion = result.usage?.completionTokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** The content of a completion: the answer, then its sources. */
export function completionContent(result: ChatAnswer): string {
  return `${result.text}${sourcesBlock(result.citations)}`;
}
