/**
 * POST /chat and POST /chat/general (Server-Sent Events), the conversation history and the retrieval
 * trace. The stream's events are read into the shapes the chat store applies.
 */
import type {
  AnswerGenerator,
  ChatAskRequest,
  ChatCitationsEvent,
  ChatDoneEvent,
  ChatErrorCode,
  ChatErrorEvent,
  ChatRetrievalEvent,
  ChatTokenEvent,
  Citation,
  CitationSpan,
  Conversation,
  ConversationDetail,
  ConversationMessage,
  GeneralKnowledgeRequest,
  Page,
  PageQuery,
  RenameConversationRequest,
  RetrievalTrace,
  SearchSettings,
} from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import type { ApiOperation } from '../api-operations';
import {
  flattenTimings,
  isRecord,
  num,
  numbers,
  optNum,
  optStr,
  parsePage,
  str,
  strings,
  type FlatNumbers,
  type OrNull,
  type UnknownRecord,
} from './read';
import {
  parseAdaptive,
  parseAnswerability,
  parseExpansions,
  parseHyde,
  parseSearchHit,
  withPages,
  type SearchHitView,
  type SearchResponseView,
} from './search';
import { queryOf, type CallSpec, type RequestOptions, type Transport } from './transport';
import { httpError } from '../api-errors';

/**
 * The `done` event as the web app reads it: ids, generator and the general-knowledge offer are null
 * when the server did not say; timings and usage are flattened to numbers.
 */
export type ChatDoneView = Pick<ChatDoneEvent, 'notFound' | 'source' | 'model'> &
  OrNull<Pick<ChatDoneEvent, 'conversationId' | 'messageId' | 'generator' | 'generalKnowledgeAvailable'>> & {
    timings: FlatNumbers;
    usage: FlatNumbers;
  };

/** One event of POST /chat and POST /chat/general, as the chat store applies it. */
export type ChatEventView =
  | ({
      type: 'retrieval';
      /** The passages ([1]..[n]), variants, HyDE and timings, in the same shape /rag/search has. */
      search: SearchResponseView;
    } & OrNull<Pick<ChatRetrievalEvent, 'conversationId' | 'standaloneQuery'>> & {
        /** The stored question's id (for regenerating or editing it). */
        userMessageId?: string | null;
      })
  | ({ type: 'token' } & ChatTokenEvent)
  | ({ type: 'citations'; dropped: ChatCitationsEvent['droppedMarkers'] } & Pick<
      ChatCitationsEvent,
      'citations' | 'uncited'
    >)
  | { type: 'done'; done: ChatDoneView }
  | ({ type: 'error'; code: ChatErrorCode | (string & {}) | null } & Pick<ChatErrorEvent, 'message'> &
      OrNull<Required<Pick<ChatErrorEvent, 'conversationId' | 'messageId'>>>);

function parseSpan(value: UnknownRecord): CitationSpan {
  const span = value.span;
  if (isRecord(span)) {
    const start = optNum(span.start);
    const end = optNum(span.end);
    if (start !== null && end !== null && end >= start) return { start, end };
  }
  const start = optNum(value.spanStart);
  const end = optNum(value.spanEnd);
  return start !== null && end !== null && end >= start ? { start, end } : { start: 0, end: 0 };
}

export function parseCitation(value: unknown): Citation | null {
  if (!isRecord(value)) return null;
  const marker = num(value.marker, Number.NaN);
  if (!Number.isInteger(marker)) return null;
  return {
    marker,
    chunkId: str(value.chunkId),
    documentId: str(value.documentId),
    title: str(value.title ?? value.documentTitle, 'Untitled document'),
    headingPath: strings(value.headingPath),
    anchor: optStr(value.anchor),
    span: parseSpan(value),
    ...withPages(value.pages),
  };
}

export function parseCitations(value: unknown): Citation[] {
  return Array.isArray(value)
    ? value.map(parseCitation).filter((item): item is Citation => item !== null)
    : [];
}

/** A retrieved passage of the chat's `retrieval` event, in the /rag/search hit shape. */
function passageAsHit(value: UnknownRecord): SearchHitView {
  const span = parseSpan(value);
  const known = span.end > span.start;
  return {
    ...parseSearchHit(value),
    documentTitle: str(value.title ?? value.documentTitle, 'Untitled document'),
    spanStart: known ? span.start : optNum(value.spanStart),
    spanEnd: known ? span.end : optNum(value.spanEnd),
  };
}

/** The `retrieval` event: passages numbered [1]..[n] (sorted by marker), variants, HyDE, timings. */
export function parseRetrievalEvent(record: UnknownRecord): SearchResponseView {
  const list = Array.isArray(record.passages)
    ? record.passages
    : Array.isArray(record.results)
      ? record.results
      : [];
  const passages = list.filter(isRecord);
  const ordered = passages.every((item) => typeof item.marker === 'number')
    ? [...passages].sort((a, b) => num(a.marker) - num(b.marker))
    : passages;
  return {
    results: ordered.map(passageAsHit),
    expansions: parseExpansions(record.expansions),
    hyde: parseHyde(record.hyde),
    timings: flattenTimings(record.timings),
    warnings: strings(record.warnings),
    belowThreshold: record.belowThreshold === true,
    answerability: parseAnswerability(record.answerability),
    adaptive: parseAdaptive(record.adaptive),
  };
}

const GENERATORS: readonly AnswerGenerator[] = ['llm', 'extractive', 'none'];

function parseDone(data: UnknownRecord): ChatDoneView {
  const usage = numbers(data.usage);
  if (usage.promptTokens !== undefined || usage.completionTokens !== undefined) {
    usage.totalTokens = (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0);
  }
  return {
    conversationId: optStr(data.conversationId),
    messageId: optStr(data.messageId),
    notFound: data.notFound === true,
    source: data.source === 'general-knowledge' ? 'general-knowledge' : 'documents',
    generator: (GENERATORS as readonly unknown[]).includes(data.generator)
      ? (data.generator as AnswerGenerator)
      : null,
    model: optStr(data.model),
    timings: flattenTimings(data.timings),
    usage,
    generalKnowledgeAvailable:
      typeof data.generalKnowledgeAvailable === 'boolean' ? data.generalKnowledgeAvailable : null,
  };
}

/** Turns one SSE message of the chat stream into a typed event (null for events the app ignores). */
export function parseChatEvent(event: string, data: string): ChatEventView | null {
  let json: unknown;
  try {
    json = data === '' ? {} : JSON.parse(data);
  } catch {
    return event === 'token' ? { type: 'token', text: data } : null;
  }
  const record = isRecord(json) ? json : {};
  switch (event) {
    case 'retrieval':
      return {
        type: 'retrieval',
        search: parseRetrievalEvent(record),
        conversationId: optStr(record.conversationId),
        userMessageId: optStr(record.userMessageId),
        standaloneQuery: optStr(record.standaloneQuery),
      };
    case 'token':
      return { type: 'token', text: typeof json === 'string' ? json : str(record.text) };
    case 'citations':
      return {
        type: 'citations',
        citations: parseCitations(record.citations),
        dropped: (Array.isArray(record.droppedMarkers) ? record.droppedMarkers : []).filter(
          (item): item is number => typeof item === 'number' && Number.isInteger(item),
        ),
        uncited: record.uncited === true,
      };
    case 'done':
      return { type: 'done', done: parseDone(record) };
    case 'error':
      return {
        type: 'error',
        message: str(record.message, 'The answer stopped because of an error on the server.'),
        code: optStr(record.code),
        conversationId: optStr(record.conversationId),
        messageId: optStr(record.messageId),
      };
    default:
      return null;
  }
}

export function parseConversation(value: unknown): Conversation | null {
  if (!isRecord(value) || typeof value.id !== 'string') return null;
  return {
    id: value.id,
    title: str(value.title).trim() || 'Untitled conversation',
    messageCount: num(value.messageCount),
    createdAt: str(value.createdAt),
    updatedAt: str(value.updatedAt ?? value.createdAt),
  };
}

function parseMessage(value: unknown): ConversationMessage | null {
  if (!isRecord(value) || typeof value.id !== 'string') return null;
  const status = value.status === 'failed' || value.status === 'cancelled' ? value.status : 'complete';
  return {
    id: value.id,
    conversationId: str(value.conversationId),
    role: value.role === 'user' ? 'user' : 'assistant',
    content: str(value.content),
    status,
    replyToId: optStr(value.replyToId),
    source:
      value.source === 'general-knowledge'
        ? 'general-knowledge'
        : value.source === 'documents'
          ? 'documents'
          : null,
    generator: (GENERATORS as readonly unknown[]).includes(value.generator)
      ? (value.generator as AnswerGenerator)
      : null,
    notFound: value.notFound === true,
    citations: parseCitations(value.citations),
    droppedMarkers: (Array.isArray(value.droppedMarkers) ? value.droppedMarkers : []).filter(
      (item): item is number => typeof item === 'number',
    ),
    uncited: value.uncited === true,
    model: optStr(value.model),
    usage: null,
    error: optStr(value.error),
    hasTrace: value.hasTrace === true,
    createdAt: str(value.createdAt),
  };
}

export function parseConversationDetail(json: unknown): ConversationDetail | null {
  const conversation = parseConversation(json);
  if (!conversation || !isRecord(json)) return null;
  const messages = Array.isArray(json.messages)
    ? parsePage({ items: json.messages }, parseMessage)
    : parsePage(json.messages, parseMessage);
  if (!messages) return null;
  return { ...conversation, messages };
}

export function parseTrace(json: unknown): RetrievalTrace | null {
  if (!isRecord(json) || typeof json.messageId !== 'string' || typeof json.query !== 'string') return null;
  return {
    ...(json as unknown as RetrievalTrace),
    answerability: parseAnswerability(json.answerability),
    adaptive: parseAdaptive(json.adaptive),
  };
}

export function chatApi(http: Transport) {
  const ops = API_OPERATIONS;

  async function* chatEvents(operation: ApiOperation, spec: CallSpec): AsyncGenerator<ChatEventView> {
    for await (const message of http.stream(operation, spec)) {
      const event = parseChatEvent(message.event, message.data);
      if (event) yield event;
    }
  }

  return {
    /** POST /chat with the fully merged settings: the answer as it streams (retrieval, tokens, citations, done or error). */
    streamChat(
      request: ChatAskRequest & { settings: SearchSettings },
      { signal }: RequestOptions = {},
    ): AsyncGenerator<ChatEventView> {
      const body: ChatAskRequest = { message: request.message, settings: request.settings };
      if (request.conversationId) body.conversationId = request.conversationId;
      if (request.conversationId && request.replaceMessageId)
        body.replaceMessageId = request.replaceMessageId;
      return chatEvents(ops.chat, { body, signal });
    },

    /** POST /chat/general after a not-found answer: the LLM answers without the documents. */
    streamGeneralAnswer(
      input: GeneralKnowledgeRequest,
      { signal }: RequestOptions = {},
    ): AsyncGenerator<ChatEventView> {
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
        (body) => parsePage(body, parseConversation),
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
