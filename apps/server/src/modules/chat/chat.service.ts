import { Injectable, Logger } from '@nestjs/common';
import { ANSWER_ERROR_MESSAGES, answerRecord, generateAnswer, generateGeneralAnswer } from '@lumina/rag';
import type { AnswerDeps, AnswerOutcome, ChatModel, EmbeddingProvider } from '@lumina/rag';
import type {
  ChatAskRequest,
  ChatStreamEventMap,
  ChatStreamEventName,
  GeneralKnowledgeRequest,
  SearchSettings,
} from '@lumina/shared';
import { InjectChatModel, InjectEmbedder } from '../../providers/providers.module';
import { RequestMetrics } from '../metrics/request-metrics';
import { RagService } from '../rag/rag.service';
import { ConversationService } from './conversation.service';
import type { ConversationEntity } from './entities/conversation.entity';
import type { MessageEntity } from './entities/message.entity';
import { ServerRestartingError } from './chat-streams';
import { CollectionScope } from '../collections/collection-scope.service';
import type { SearchScope } from '../collections/collection-scope.service';
import type { CollectionAccess } from '../auth/principal';
import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  UnavailableError,
} from '../../common/errors/domain-errors';

/** Where a chat stream's events go (the SSE response), and the signal that says the client left. */
export interface ChatEventSink {
  send<K extends ChatStreamEventName>(event: K, data: ChatStreamEventMap[K]): void;
  readonly signal: AbortSignal;
}

export interface PreparedChat {
  /** The API key the conversation belongs to (a new one is created for it). */
  ownerKeyId: string;
  message: string;
  conversation: ConversationEntity | null;
  /** The question this ask replaces (regenerate, edit): it and every later message go first. */
  replaces: MessageEntity | null;
  settings: Partial<SearchSettings>;
  /** The collections searched: the request's, else the conversation's, else every one. */
  scope: SearchScope;
  /** The request named collections for an existing conversation: it keeps them from now on. */
  changesCollections: boolean;
}

export interface PreparedGeneral {
  conversation: ConversationEntity;
  question: MessageEntity;
  /** The question as it was searched (rewritten with the conversation's context). */
  standaloneQuestion: string;
  model: ChatModel;
}

export const GENERAL_NEEDS_LLM =
  'Answers from general knowledge need a language model, and none is configured (set LLM_BASE_URL and LLM_MODEL).';

/**
 * The chat: a question is stored, answered by generateAnswer (the same code the answers evaluation
 * runs) while the events stream out, and the answer is stored with its retrieval trace — also when
 * the model broke off (status failed, partial text kept) or the client left (status cancelled).
 */
@Injectable()
export class ChatService {
  private readonly logger = new Logger(ChatService.name);

  constructor(
    private readonly rag: RagService,
    private readonly conversations: ConversationService,
    @InjectChatModel() private readonly chatModel: ChatModel | null,
    @InjectEmbedder() private readonly embedder: EmbeddingProvider,
    private readonly metrics: RequestMetrics,
    private readonly collections: CollectionScope,
  ) {}

  /**
   * What answering uses: the API's search (of `scope`, or of every collection), the configured chat
   * model (or none) and embedder.
   */
  answerDeps(scope?: SearchScope): AnswerDeps {
    return {
      search: (query, settings, signal) => this.rag.search(query, settings, signal, scope),
      chatModel: this.chatModel,
      embedder: this.embedder,
    };
  }

  /** The checks made before the stream opens, so bad requests get a plain 4xx. */
  async prepareChat(
    ownerKeyId: string,
    access: CollectionAccess,
    body: ChatAskRequest,
  ): Promise<PreparedChat> {
    const message = body.message.trim();
    if (!message) throw new InvalidRequestError('message must contain words, not only spaces');
    const conversation = body.conversationId
      ? await this.conversations.require(ownerKeyId, body.conversationId)
      : null;
    if (body.replaceMessageId && !conversation) {
      throw new InvalidRequestError('replaceMessageId needs the conversationId of the question it replaces');
    }
    const replaces =
      conversation && body.replaceMessageId
        ? await this.conversations.requireQuestion(conversation.id, body.replaceMessageId)
        : null;
    const scope = body.collectionIds
      ? await this.collections.searchable(access, body.collectionIds)
      : conversation
        ? await this.collections.stillSearchable(access, conversation.collectionIds)
        : await this.collections.searchable(access);
    const changesCollections =
      conversation !== null && !sameIds(conversation.collectionIds, scope.collectionIds);
    return {
      ownerKeyId,
      message,
      conversation,
      replaces,
      settings: body.settings ?? {},
      scope,
      changesCollections,
    };
  }

  async streamChat(prepared: PreparedChat, sink: ChatEventSink): Promise<void> {
    const started = performance.now();
    const conversation =
      prepared.conversation ??
      (await this.conversations.create(prepared.ownerKeyId, prepared.message, prepared.scope.collectionIds));
    if (prepared.changesCollections) {
      await this.conversations.setCollections(conversation.id, prepared.scope.collectionIds);
    }
    if (prepared.replaces) await this.conversations.truncateFrom(conversation.id, prepared.replaces.id);
    const history = prepared.conversation ? await this.conversations.history(conversation.id) : [];
    const question = await this.conversations.addMessage({
      conversationId: conversation.id,
      role: 'user',
      content: prepared.message,
    });
    const outcome = await generateAnswer(
      { question: prepared.message, history, settings: prepared.settings, signal: sink.signal },
      this.answerDeps(prepared.scope),
      {
        retrieval: (stage) =>
          sink.send('retrieval', { conversationId: conversation.id, userMessageId: question.id, ...stage }),
        token: (text) => sink.send('token', { text }),
      },
    );
    const answer = await this.store(conversation.id, question.id, outcome);
    this.observe(outcome, started);
    this.finish(conversation.id, answer.id, outcome, sink);
  }

  /** The checks before an answer from general knowledge: 404, 409 (not after a notFound answer), 503. */
  async prepareGeneral(ownerKeyId: string, body: GeneralKnowledgeRequest): Promise<PreparedGeneral> {
    const conversation = await this.conversations.require(ownerKeyId, body.conversationId);
    const answer = await this.conversations.findMessage(body.messageId);
    if (!answer || answer.conversationId !== conversation.id) {
      throw new NotFoundError(`Message ${body.messageId} is not in conversation ${conversation.id}`);
    }
    if (answer.role !== 'assistant' || answer.source !== 'documents') {
      throw new InvalidRequestError('messageId must name an answer from the documents');
    }
    if (!answer.notFound || answer.status !== 'complete') {
      throw new ConflictError(
        'An answer from general knowledge can only follow an answer that found nothing in the documents; ' +
          'this answer did not say so.',
      );
    }
    const question = answer.replyToId ? await this.conversations.findMessage(answer.replyToId) : null;
    if (!question) throw new ConflictError('The question of this answer no longer exists.');
    if (await this.conversations.hasGeneralAnswer(question.id)) {
      throw new ConflictError('This question already has an answer from general knowledge.');
    }
    // Asked for, whether or not a model can write it: how often the documents fell short for someone.
    this.metrics.countGeneralKnowledgeRequest();
    if (!this.chatModel) throw new UnavailableError(GENERAL_NEEDS_LLM);
    const trace = await this.conversations.findTrace(answer.id);
    return {
      conversation,
      question,
      standaloneQuestion: trace?.standaloneQuery ?? question.content,
      model: this.chatModel,
    };
  }

  async streamGeneral(prepared: PreparedGeneral, sink: ChatEventSink): Promise<void> {
    const started = performance.now();
    const outcome = await generateGeneralAnswer(
      prepared.standaloneQuestion,
      prepared.model,
      { token: (text) => sink.send('token', { text }) },
      sink.signal,
    );
    outcome.query = prepared.question.content;
    const answer = await this.store(prepared.conversation.id, prepared.question.id, outcome);
    this.observe(outcome, started);
    this.finish(prepared.conversation.id, answer.id, outcome, sink);
  }

  /** The `error` event for a failure outside the answer itself (e.g. the database). */
  reportUnexpected(error: unknown, sink: ChatEventSink): void {
    this.metrics.countChatError('internal');
    this.logger.error({ msg: 'chat stream failed', err: error });
    sink.send('error', { code: 'internal', message: ANSWER_ERROR_MESSAGES.internal });
  }

  /** The answer's latency, when it failed its error code, and when complete whether it found nothing (GET /metrics). */
  private observe(outcome: AnswerOutcome, started: number): void {
    this.metrics.observeChat(outcome.status, (performance.now() - started) / 1000, outcome.error?.code);
    if (outcome.status === 'complete') this.metrics.countAnswer(outcome.notFound);
  }

  private async store(
    conversationId: string,
    questionId: string,
    outcome: AnswerOutcome,
  ): Promise<MessageEntity> {
    const { message, trace } = answerRecord(outcome);
    return this.conversations.addMessage(
      { ...message, conversationId, role: 'assistant', replyToId: questionId },
      trace,
    );
  }

  private finish(
    conversationId: string,
    messageId: string,
    outcome: AnswerOutcome,
    sink: ChatEventSink,
  ): void {
    if (outcome.status === 'complete') {
      if (outcome.droppedMarkers.length || outcome.uncited) {
        this.logger.warn({
          msg: 'answer citations need attention',
          messageId,
          droppedMarkers: outcome.droppedMarkers,
          uncited: outcome.uncited,
        });
      }
      sink.send('citations', {
        citations: outcome.citations,
        droppedMarkers: outcome.droppedMarkers,
        uncited: outcome.uncited,
      });
      sink.send('done', {
        conversationId,
        messageId,
        notFound: outcome.notFound,
        generator: outcome.generator,
        source: outcome.source,
        model: outcome.model,
        usage: outcome.usage,
        timings: outcome.timings,
        generalKnowledgeAvailable:
          outcome.notFound && outcome.source === 'documents' && this.chatModel !== null,
      });
      return;
    }
    const error = outcome.error!;
    if (outcome.status === 'cancelled' && sink.signal.reason instanceof ServerRestartingError) {
      // Stopped by a shutdown, not by the client: it is still listening, so tell it why.
      this.logger.log({ msg: 'answer ended by a shutdown; the partial answer is stored', messageId });
      sink.send('error', {
        code: 'server_restarting',
        message: ANSWER_ERROR_MESSAGES.server_restarting,
        conversationId,
        messageId,
      });
      return;
    }
    if (outcome.status === 'cancelled') {
      this.logger.log({
        msg: 'the client left before the answer was complete',
        messageId,
        detail: error.detail,
      });
      return;
    }
    this.logger.warn({ msg: 'answer failed', messageId, code: error.code, detail: error.detail });
    sink.send('error', { code: error.code, message: error.message, conversationId, messageId });
  }
}

/** The same collections, in any order. */
export function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id));
}
