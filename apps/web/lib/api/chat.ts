/**
 * POST /chat and POST /chat/general (Server-Sent Events), the conversation history and the retrieval
 * trace. Each answer, and each stream event's data, is parsed with its contract schema from libs/shared.
 */
import {
  chatStreamEventSchemas,
  conversationDetailSchema,
  conversationSchema,
  pageOf,
  retrievalTraceSchema,
} from '@lumina/shared';
import type {
  ChatAskRequest,
  ChatStreamEvent,
  ChatStreamEventName,
  Conversation,
  ConversationDetail,
  GeneralKnowledgeRequest,
  Page,
  PageQuery,
  RenameConversationRequest,
  RetrievalTrace,
  SearchSettings,
} from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import type { ApiOperation } from '../api-operations';
import { httpError, invalidResponseError } from '../api-errors';
import { parsedBy } from './read';
import { queryOf, type CallSpec, type RequestOptions, type Transport } from './transport';

export const parseConversation = parsedBy(conversationSchema);
const conversationPage = parsedBy(pageOf(conversationSchema));
export const parseConversationDetail = parsedBy(conversationDetailSchema);
export const parseTrace = parsedBy(retrievalTraceSchema);

const CHAT_EVENT_NAMES = Object.keys(chatStreamEventSchemas) as ChatStreamEventName[];

/** Whether the chat stream declares an event of this name (others, such as keep-alives, are ignored). */
export function isChatEventName(name: string): name is ChatStreamEventName {
  return (CHAT_EVENT_NAMES as string[]).includes(name);
}

/** One event of the chat stream, its data parsed with the event's schema; null when it breaks the contract. */
export function parseChatEvent(event: ChatStreamEventName, data: string): ChatStreamEvent | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = chatStreamEventSchemas[event].safeParse(json);
  // The schema is the one of `event`, so the pair is one member of the union.
  return parsed.success ? ({ event, data: parsed.data } as ChatStreamEvent) : null;
}

export function chatApi(http: Transport) {
  const ops = API_OPERATIONS;

  /** The stream's events; one whose data breaks its schema ends the stream as an unreadable answer. */
  async function* chatEvents(operation: ApiOperation, spec: CallSpec): AsyncGenerator<ChatStreamEvent> {
    for await (const message of http.stream(operation, spec)) {
      if (!isChatEventName(message.event)) continue;
      const event = parseChatEvent(message.event, message.data);
      if (!event) throw invalidResponseError(operation, 200, `expected a readable ${message.event} event`);
      yield event;
    }
  }

  return {
    /**
     * POST /chat with the fully merged settings: the answer as it streams (retrieval, tokens, citations,
     * done or error). `collectionIds` is sent only when it names some (none: every readable collection,
     * or the conversation's for a follow-up).
     */
    streamChat(
      request: ChatAskRequest & { settings: SearchSettings },
      { signal }: RequestOptions = {},
    ): AsyncGenerator<ChatStreamEvent> {
      const body: ChatAskRequest = { message: request.message, settings: request.settings };
      if (request.conversationId) body.conversationId = request.conversationId;
      if (request.collectionIds?.length) body.collectionIds = [...request.collectionIds];
      if (request.conversationId && request.replaceMessageId)
        body.replaceMessageId = request.replaceMessageId;
      return chatEvents(ops.chat, { body, signal });
    },

    /** POST /chat/general after a not-found answer: the LLM answers without the documents. */
    streamGeneralAnswer(
      input: GeneralKnowledgeRequest,
      { signal }: RequestOptions = {},
    ): AsyncGenerator<ChatStreamEvent> {
      return chatEvents(ops.chatGeneral, { body: input, signal });
    },

    /** GET /conversations, newest first; with `q`, those whose title or any message contains it. */
    listConversations(
      query: PageQuery & { q?: string } = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<Conversation>> {
      return http.json(
        ops.listConversations,
        { query: queryOf(query), signal },
        conversationPage,
        'expected a page of conversations',
      );
    },

    getConversation(id: string, { signal }: RequestOptions = {}): Promise<ConversationDetail> {
      return http.json(
        ops.getConversation,
        { params: { id }, signal },
        parseConversationDetail,
        'expected a conversation',
      );
    },

    renameConversation(id: string, title: string, { signal }: RequestOptions = {}): Promise<Conversation> {
      const body: RenameConversationRequest = { title };
      return http.json(
        ops.renameConversation,
        { params: { id }, body, signal },
        parseConversation,
        'expected a conversation',
      );
    },

    deleteConversation(id: string, { signal }: RequestOptions = {}): Promise<void> {
      return http.noContent(ops.deleteConversation, { params: { id }, signal });
    },

    /** GET /conversations/:id/export: the conversation as Markdown, each answer with its sources. */
    async exportConversation(id: string, { signal }: RequestOptions = {}): Promise<string> {
      const { status, ok, json, text } = await http.call(ops.exportConversation, { params: { id }, signal });
      if (!ok) throw httpError({ status, body: json, operation: ops.exportConversation });
      return text;
    },

    getTrace(messageId: string, { signal }: RequestOptions = {}): Promise<RetrievalTrace> {
      return http.json(ops.getTrace, { params: { id: messageId }, signal }, parseTrace, 'expected a trace');
    },
  };
}
