import type { AdaptiveExpansionDecision, AnswerabilityVerdict } from './answerability';
import type { Page } from './documents';
import { objectError, pageQuerySchema, typeError, uuid, z } from './contract/zod';
import { settingsOverridesSchema } from './settings';
import type { SearchSettings } from './settings';

/**
 * The one sentence an answer starts with when the documents do not answer the question: sent without
 * calling a model when retrieval finds nothing relevant enough, and asked of the model as its first
 * sentence when the passages it was given lack the answer. Clients match on it; never reword it.
 */
export const NOT_FOUND_SENTENCE =
  'The provided documents do not contain enough information to answer this question.';

/**
 * Said under a not-found answer when the server has no language model, instead of offering an answer
 * from general knowledge that could not be written.
 */
export const GENERAL_KNOWLEDGE_NEEDS_LLM =
  'Answers from general knowledge need a language model: the server administrator can configure one with LLM_BASE_URL and LLM_MODEL.';

/** Longest question accepted by POST /chat, in characters. */
export const MAX_CHAT_MESSAGE_CHARS = 8000;

/**
 * What wrote an answer: the language model, the offline extractive answerer (quotes of the passages'
 * sentences most similar to the question), or nothing at all (the fixed refusal sentence, sent because
 * retrieval found nothing relevant enough).
 */
export type AnswerGenerator = 'llm' | 'extractive' | 'none';

/** Where an answer's content comes from: the retrieved documents, or the model's general knowledge (opt-in). */
export type AnswerSource = 'documents' | 'general-knowledge';

export type MessageRole = 'user' | 'assistant';

/**
 * `failed`: the generator broke off (the partial text is kept); `cancelled`: the client went away, or
 * the server stopped (restart) mid-answer (the partial text is kept).
 */
export type MessageStatus = 'complete' | 'failed' | 'cancelled';

/** Error codes of the chat stream's `error` event, shared by server and web. */
export type ChatErrorCode = 'llm_timeout' | 'llm_failed' | 'search_failed' | 'internal' | 'server_restarting';

/** A character range in the source document, half-open [start, end). */
export interface CitationSpan {
  start: number;
  end: number;
}

/** Pages of a paged source (PDF) a passage runs over, 1-based and inclusive: "p. 12" or "pp. 12–13". */
export interface PageRange {
  first: number;
  last: number;
}

/** A passage an answer cites with `[marker]`, resolved by the server (the model only writes the number). */
export interface Citation {
  /** The number written in the answer, e.g. 2 for "[2]": the cited passage's own marker (not a list position). */
  marker: number;
  chunkId: string;
  documentId: string;
  /** The document's title. */
  title: string;
  headingPath: string[];
  /** Slug of the passage's heading inside the document, for deep links; null without headings. */
  anchor: string | null;
  span: CitationSpan;
  /** The pages the passage is on, for paged documents (PDF); absent for the others. */
  pages?: PageRange;
}

/** One branch's view of a passage: which ranked list found it, at what rank and score. */
export interface PassageProvenance {
  branch: string;
  rank: number;
  score: number;
}

/**
 * Which reranker ordered a passage (its model version, e.g. 'ltr:ltr-scifact-v1' or 'rerank:<model>'),
 * and for the learned reranker what each feature added to the passage's score.
 */
export interface PassageRerank {
  model: string;
  /** Feature name → weight × standardised value; absent for rerankers that do not explain. */
  contributions?: Record<string, number>;
}

/** A retrieved passage as the chat shows it (and as the model saw it, numbered `marker`). */
export interface RetrievedPassage extends Citation {
  text: string;
  /** Fused (or reranked) score. */
  score: number;
  /** Cosine similarity to the query when a threshold asked for it. */
  similarity: number | null;
  provenance: PassageProvenance[];
  /** Set when a reranker ordered the passages. */
  rerank?: PassageRerank;
}

export interface ChatTokenUsage {
  promptTokens: number;
  completionTokens: number;
}

/** Stream event `retrieval`: what the answer will be written from. */
export interface ChatRetrievalEvent {
  conversationId: string;
  /** The stored user message. */
  userMessageId: string;
  query: string;
  /** The query that was searched: the question rewritten to stand alone using the conversation so far. */
  standaloneQuery: string;
  /** How it was written, and for an offline follow-up why (as in the stored trace). */
  rewrite: RetrievalTrace['rewrite'];
  rewriteReason: FollowUpReason | null;
  passages: RetrievedPassage[];
  expansions: { source: string; variants: string[] } | null;
  hyde: { source: string; passage: string } | null;
  /** Whether adaptive expansion/HyDE ran or was skipped, and why (null when neither was adaptive). */
  adaptive: AdaptiveExpansionDecision | null;
  belowThreshold: boolean;
  /** The answerability decision taken before any model call (null when no model decided). */
  answerability: AnswerabilityVerdict | null;
  warnings: string[];
  timings: { rewrite: number; search: number };
}

/** Stream event `token`: the next piece of answer text. */
export interface ChatTokenEvent {
  text: string;
}

/** Stream event `citations`: the valid citations of the answer, and the markers that were dropped. */
export interface ChatCitationsEvent {
  citations: Citation[];
  /** Markers the model wrote that name no passage: removed from the answer text. */
  droppedMarkers: number[];
  /** True when an answer from the documents cites no passage at all (shown as a warning). */
  uncited: boolean;
}

export interface ChatTimings {
  rewrite: number;
  search: number;
  generation: number;
  /** Time to the first answer token. */
  firstToken: number | null;
  total: number;
}

/** Stream event `done`: the answer is complete and stored. */
export interface ChatDoneEvent {
  conversationId: string;
  messageId: string;
  notFound: boolean;
  generator: AnswerGenerator;
  source: AnswerSource;
  /** The model that wrote the answer (the LLM's id, or the embedder's for the extractive answerer). */
  model: string | null;
  usage: ChatTokenUsage | null;
  timings: ChatTimings;
  /**
   * Whether POST /chat/general can answer this question from general knowledge: only after a not-found
   * answer, and only when the server has a language model (offline it never can).
   */
  generalKnowledgeAvailable: boolean;
}

/** Stream event `error`: a sentence a person understands; the log keeps the detail. */
export interface ChatErrorEvent {
  code: ChatErrorCode;
  message: string;
  conversationId?: string;
  /** The stored (partial, failed) answer, when one was stored. */
  messageId?: string;
}

/** The events of POST /chat and POST /chat/general, by SSE event name. */
export interface ChatStreamEventMap {
  retrieval: ChatRetrievalEvent;
  token: ChatTokenEvent;
  citations: ChatCitationsEvent;
  done: ChatDoneEvent;
  error: ChatErrorEvent;
}

export type ChatStreamEventName = keyof ChatStreamEventMap;

export type ChatStreamEvent = {
  [K in ChatStreamEventName]: { event: K; data: ChatStreamEventMap[K] };
}[ChatStreamEventName];

/** Body of POST /chat: a question, in a new conversation or a follow-up of `conversationId`. */
export const chatAskRequestSchema = z
  .strictObject(
    {
      conversationId: uuid('conversationId', 'a conversation id')
        .optional()
        .meta({ description: 'Continue this conversation; omitted: start a new one' }),
      replaceMessageId: uuid('replaceMessageId', 'a message id')
        .optional()
        .meta({
          description:
            'Regenerate or edit: a question of `conversationId`. It and every later message are deleted, and ' +
            '`message` (the same text to regenerate, a new one to edit) is asked in its place.',
        }),
      message: z
        .string({ error: typeError('message', 'message must be text') })
        .min(1, { error: 'message must not be empty' })
        .max(MAX_CHAT_MESSAGE_CHARS, {
          error: `message must be at most ${MAX_CHAT_MESSAGE_CHARS} characters long`,
        }),
      settings: settingsOverridesSchema
        .optional()
        .meta({ description: 'Retrieval settings (overrides of the defaults; the web app sends them all)' }),
    },
    { error: objectError('the body must be an object: { message, conversationId?, settings? }') },
  )
  .meta({ example: { message: 'How do I fail over the database?' } });
export type ChatAskRequest = z.infer<typeof chatAskRequestSchema>;

/** Body of POST /chat/general: answer the question of a `notFound` answer from general knowledge. */
export const generalKnowledgeRequestSchema = z.strictObject({
  conversationId: uuid('conversationId', 'a conversation id'),
  messageId: uuid('messageId', 'a message id').meta({
    description: 'The answer that said the documents do not contain the answer',
  }),
});
export type GeneralKnowledgeRequest = z.infer<typeof generalKnowledgeRequestSchema>;

export interface ConversationMessage {
  id: string;
  conversationId: string;
  role: MessageRole;
  content: string;
  status: MessageStatus;
  /** Assistant messages: the user message they answer. */
  replyToId: string | null;
  source: AnswerSource | null;
  generator: AnswerGenerator | null;
  notFound: boolean;
  citations: Citation[];
  droppedMarkers: number[];
  uncited: boolean;
  model: string | null;
  usage: ChatTokenUsage | null;
  /** Why a failed answer failed (a sentence a person understands). */
  error: string | null;
  /** True when GET /messages/:id/trace has a retrieval trace for the message. */
  hasTrace: boolean;
  createdAt: string;
}

export interface Conversation {
  id: string;
  title: string;
  messageCount: number;
  createdAt: string;
  updatedAt: string;
}

/** GET /conversations/:id: the conversation and a page of its messages (oldest first). */
export interface ConversationDetail extends Conversation {
  messages: Page<ConversationMessage>;
}

/** Body of PATCH /conversations/:id. */
/** Longest conversation title. */
export const MAX_CONVERSATION_TITLE_CHARS = 80;
/** Longest text `GET /conversations?q=` searches for. */
export const MAX_CONVERSATION_QUERY_CHARS = 200;

export const renameConversationRequestSchema = z
  .strictObject({
    title: z
      .string({ error: 'title must be a string' })
      .regex(/\S/, { error: 'title must contain a visible character' })
      .max(MAX_CONVERSATION_TITLE_CHARS, {
        error: `title must be at most ${MAX_CONVERSATION_TITLE_CHARS} characters`,
      }),
  })
  .meta({ example: { title: 'Database failover' } });
export type RenameConversationRequest = z.infer<typeof renameConversationRequestSchema>;

/** `?page=&limit=&q=` of GET /conversations. */
export const conversationListQuerySchema = pageQuerySchema.extend({
  q: z
    .string({ error: 'q must be text' })
    .max(MAX_CONVERSATION_QUERY_CHARS, {
      error: `q must be at most ${MAX_CONVERSATION_QUERY_CHARS} characters long`,
    })
    .optional()
    .meta({
      description: 'Only conversations whose title or any question or answer contains this text (any case)',
      example: 'standby',
    }),
});
export type ConversationListQuery = z.infer<typeof conversationListQuerySchema>;

export interface TracePassage {
  marker: number;
  chunkId: string;
  documentId: string;
  score: number;
  similarity: number | null;
  /** Per-branch ranks and scores. */
  provenance: PassageProvenance[];
  /** The reranker's model version and, for the learned reranker, each feature's contribution. */
  rerank?: PassageRerank;
}

/**
 * Why an offline follow-up was searched as it was: `stands-alone` (no reference, searched alone),
 * `refers-back` (it points back and the search with the earlier question was more answerable: it leads),
 * `alone-leads` (it points back, but its own search was as answerable: that leads and the search with the
 * earlier question fills the lower ranks). `no-salient-terms` and `low-answerability` are older traces'.
 */
export type FollowUpReason =
  'stands-alone' | 'refers-back' | 'alone-leads' | 'no-salient-terms' | 'low-answerability';

/**
 * Everything needed to tell a retrieval problem from a generation problem, stored with every answer.
 */
export interface RetrievalTrace {
  id: string;
  messageId: string;
  query: string;
  standaloneQuery: string;
  /**
   * How the searched query was written: the question itself (a first question, or a follow-up that
   * stands alone), by the LLM, or with the earlier question added (`history`).
   */
  rewrite: 'none' | 'llm' | 'history';
  /** Offline follow-ups: why it was searched alone or with the earlier question; null otherwise. */
  rewriteReason: FollowUpReason | null;
  /** The resolved search settings; null for general-knowledge answers (no search). */
  settings: SearchSettings | null;
  expansions: { source: string; variants: string[] } | null;
  hyde: { source: string; passage: string } | null;
  /** Whether adaptive expansion/HyDE ran or was skipped, and why (null when neither was adaptive). */
  adaptive: AdaptiveExpansionDecision | null;
  belowThreshold: boolean;
  answerability: AnswerabilityVerdict | null;
  retrieved: TracePassage[];
  /** Version of the answer prompt (or of the extractive answerer); null when no generator ran. */
  promptVersion: string | null;
  model: string | null;
  generator: AnswerGenerator;
  source: AnswerSource;
  usage: ChatTokenUsage | null;
  timings: ChatTimings;
  notFound: boolean;
  uncited: boolean;
  droppedMarkers: number[];
  warnings: string[];
  createdAt: string;
}
