import { collectionIdsSchema } from './collections';
import { adaptiveExpansionDecisionSchema, answerabilityVerdictSchema } from './answerability';
import { objectError, pageOf, pageQuerySchema, typeError, uuid, z } from './contract/zod';
import { searchSettingsSchema, settingsOverridesSchema } from './settings';

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
export const answerGeneratorSchema = z.enum(['llm', 'extractive', 'none']);
export type AnswerGenerator = z.infer<typeof answerGeneratorSchema>;

/** Where an answer's content comes from: the retrieved documents, or the model's general knowledge (opt-in). */
export const answerSourceSchema = z.enum(['documents', 'general-knowledge']);
export type AnswerSource = z.infer<typeof answerSourceSchema>;

export const messageRoleSchema = z.enum(['user', 'assistant']);
export type MessageRole = z.infer<typeof messageRoleSchema>;

/**
 * `failed`: the generator broke off (the partial text is kept); `cancelled`: the client went away, or
 * the server stopped (restart) mid-answer (the partial text is kept).
 */
export const messageStatusSchema = z.enum(['complete', 'failed', 'cancelled']);
export type MessageStatus = z.infer<typeof messageStatusSchema>;

/** Error codes of the chat stream's `error` event, shared by server and web. */
export const chatErrorCodeSchema = z.enum([
  'llm_timeout',
  'llm_failed',
  'search_failed',
  'internal',
  'server_restarting',
]);
export type ChatErrorCode = z.infer<typeof chatErrorCodeSchema>;

/** A character range in the source document, half-open [start, end). */
export const citationSpanSchema = z.object({ start: z.number(), end: z.number() });
export type CitationSpan = z.infer<typeof citationSpanSchema>;

/** Pages of a paged source (PDF) a passage runs over, 1-based and inclusive: "p. 12" or "pp. 12–13". */
export const pageRangeSchema = z.object({ first: z.number(), last: z.number() });
export type PageRange = z.infer<typeof pageRangeSchema>;

/** A passage an answer cites with `[marker]`, resolved by the server (the model only writes the number). */
export const citationSchema = z.object({
  /** The number written in the answer, e.g. 2 for "[2]": the cited passage's own marker (not a list position). */
  marker: z.number(),
  chunkId: z.string(),
  documentId: z.string(),
  /** The document's title. */
  title: z.string(),
  headingPath: z.array(z.string()),
  /** Slug of the passage's heading inside the document, for deep links; null without headings. */
  anchor: z.string().nullable(),
  span: citationSpanSchema,
  /** The pages the passage is on, for paged documents (PDF); absent for the others. */
  pages: pageRangeSchema.optional(),
});
export type Citation = z.infer<typeof citationSchema>;

/** One branch's view of a passage: which ranked list found it ('original:bm25', 'hyde:dense', …), at what rank and score. */
export const passageProvenanceSchema = z.object({ branch: z.string(), rank: z.number(), score: z.number() });
export type PassageProvenance = z.infer<typeof passageProvenanceSchema>;

/**
 * Which reranker ordered a passage (its model version, e.g. 'ltr:ltr-scifact-v1' or 'rerank:<model>'),
 * and for the learned reranker what each feature added to the passage's score.
 */
export const passageRerankSchema = z.object({
  model: z.string(),
  /** Feature name → weight × standardised value; absent for rerankers that do not explain. */
  contributions: z.record(z.string(), z.number()).optional(),
});
export type PassageRerank = z.infer<typeof passageRerankSchema>;

/** A retrieved passage as the chat shows it (and as the model saw it, numbered `marker`). */
export const retrievedPassageSchema = citationSchema.extend({
  text: z.string(),
  /** Fused (or reranked) score. */
  score: z.number(),
  /** Cosine similarity to the query when a threshold asked for it. */
  similarity: z.number().nullable(),
  provenance: z.array(passageProvenanceSchema),
  /** Set when a reranker ordered the passages. */
  rerank: passageRerankSchema.optional(),
});
export type RetrievedPassage = z.infer<typeof retrievedPassageSchema>;

export const chatTokenUsageSchema = z.object({ promptTokens: z.number(), completionTokens: z.number() });
export type ChatTokenUsage = z.infer<typeof chatTokenUsageSchema>;

/**
 * Why an offline follow-up was searched as it was: `stands-alone` (no reference, searched alone),
 * `refers-back` (it points back and the search with the earlier question was more answerable: it leads),
 * `alone-leads` (it points back, but its own search was as answerable: that leads). Either way the
 * searches that did not lead — and the question with words of the passages the earlier answer cited —
 * fill the lower ranks. `no-salient-terms` and `low-answerability` are older traces'.
 */
export const followUpReasonSchema = z.enum([
  'stands-alone',
  'refers-back',
  'alone-leads',
  'no-salient-terms',
  'low-answerability',
]);
export type FollowUpReason = z.infer<typeof followUpReasonSchema>;

/**
 * How the searched query was written: the question itself (a first question, or a follow-up that stands
 * alone), by the LLM, or with the earlier question added (`history`).
 */
export const queryRewriteSchema = z.enum(['none', 'llm', 'history']);

/**
 * The variants searched and the HyDE passage, as a chat event and a stored trace keep them: who wrote
 * them ('llm', 'prf') and the writer's model and prompt version (null for PRF; optional, so that a trace
 * stored without it still reads).
 */
const writtenBy = { source: z.string(), model: z.string().nullable().optional() };
const expansionsSeenSchema = z.object({ ...writtenBy, variants: z.array(z.string()) }).nullable();
const hydeSeenSchema = z.object({ ...writtenBy, passage: z.string() }).nullable();

/** Stream event `retrieval`: what the answer will be written from. */
export const chatRetrievalEventSchema = z.object({
  conversationId: z.string(),
  /** The stored user message. */
  userMessageId: z.string(),
  query: z.string(),
  /** The query that was searched: the question rewritten to stand alone using the conversation so far. */
  standaloneQuery: z.string(),
  /** How it was written, and for an offline follow-up why (as in the stored trace). */
  rewrite: queryRewriteSchema,
  rewriteReason: followUpReasonSchema.nullable(),
  passages: z.array(retrievedPassageSchema),
  expansions: expansionsSeenSchema,
  hyde: hydeSeenSchema,
  /** Whether adaptive expansion/HyDE ran or was skipped, and why (null when neither was adaptive). */
  adaptive: adaptiveExpansionDecisionSchema.nullable(),
  belowThreshold: z.boolean(),
  /** The answerability decision taken before any model call (null when no model decided). */
  answerability: answerabilityVerdictSchema.nullable(),
  warnings: z.array(z.string()),
  timings: z.object({ rewrite: z.number(), search: z.number() }),
});
export type ChatRetrievalEvent = z.infer<typeof chatRetrievalEventSchema>;

/** Stream event `token`: the next piece of answer text. */
export const chatTokenEventSchema = z.object({ text: z.string() });
export type ChatTokenEvent = z.infer<typeof chatTokenEventSchema>;

/** Stream event `citations`: the valid citations of the answer, and the markers that were dropped. */
export const chatCitationsEventSchema = z.object({
  citations: z.array(citationSchema),
  /** Markers the model wrote that name no passage: removed from the answer text. */
  droppedMarkers: z.array(z.number()),
  /** True when an answer from the documents cites no passage at all (shown as a warning). */
  uncited: z.boolean(),
});
export type ChatCitationsEvent = z.infer<typeof chatCitationsEventSchema>;

export const chatTimingsSchema = z.object({
  rewrite: z.number(),
  search: z.number(),
  generation: z.number(),
  /** Time to the first answer token. */
  firstToken: z.number().nullable(),
  total: z.number(),
});
export type ChatTimings = z.infer<typeof chatTimingsSchema>;

/** Stream event `done`: the answer is complete and stored. */
export const chatDoneEventSchema = z.object({
  conversationId: z.string(),
  messageId: z.string(),
  notFound: z.boolean(),
  generator: answerGeneratorSchema,
  source: answerSourceSchema,
  /** The model that wrote the answer (the LLM's id, or the embedder's for the extractive answerer). */
  model: z.string().nullable(),
  usage: chatTokenUsageSchema.nullable(),
  timings: chatTimingsSchema,
  /**
   * Whether POST /chat/general can answer this question from general knowledge: only after a not-found
   * answer, and only when the server has a language model (offline it never can).
   */
  generalKnowledgeAvailable: z.boolean(),
});
export type ChatDoneEvent = z.infer<typeof chatDoneEventSchema>;

/** Stream event `error`: a sentence a person understands; the log keeps the detail. */
export const chatErrorEventSchema = z.object({
  code: chatErrorCodeSchema,
  message: z.string(),
  conversationId: z.string().optional(),
  /** The stored (partial, failed) answer, when one was stored. */
  messageId: z.string().optional(),
});
export type ChatErrorEvent = z.infer<typeof chatErrorEventSchema>;

/** The data schema of each event of POST /chat and POST /chat/general, by SSE event name. */
export const chatStreamEventSchemas = {
  retrieval: chatRetrievalEventSchema,
  token: chatTokenEventSchema,
  citations: chatCitationsEventSchema,
  done: chatDoneEventSchema,
  error: chatErrorEventSchema,
} as const;

/** The events of POST /chat and POST /chat/general, by SSE event name. */
export type ChatStreamEventMap = {
  [K in keyof typeof chatStreamEventSchemas]: z.infer<(typeof chatStreamEventSchemas)[K]>;
};

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
      collectionIds: collectionIdsSchema.optional().meta({
        description:
          'The collections to search. A new conversation keeps them; a follow-up without them searches the ' +
          "conversation's; absent on a new one: every collection the key may read",
      }),
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

export const conversationMessageSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  role: messageRoleSchema,
  content: z.string(),
  status: messageStatusSchema,
  /** Assistant messages: the user message they answer. */
  replyToId: z.string().nullable(),
  source: answerSourceSchema.nullable(),
  generator: answerGeneratorSchema.nullable(),
  notFound: z.boolean(),
  citations: z.array(citationSchema),
  droppedMarkers: z.array(z.number()),
  uncited: z.boolean(),
  model: z.string().nullable(),
  usage: chatTokenUsageSchema.nullable(),
  /** Why a failed answer failed (a sentence a person understands). */
  error: z.string().nullable(),
  /** True when GET /messages/:id/trace has a retrieval trace for the message. */
  hasTrace: z.boolean(),
  /** This key's rating of the answer (POST /messages/:id/feedback); null when it gave none. */
  feedback: z
    .object({
      rating: z.enum(['up', 'down']),
      reasons: z.array(z.string()),
      note: z.string().nullable(),
    })
    .nullable(),
  createdAt: z.string(),
});
export type ConversationMessage = z.infer<typeof conversationMessageSchema>;

export const conversationSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** The collections its questions search. */
  collectionIds: z.array(z.string()),
  messageCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Conversation = z.infer<typeof conversationSchema>;

/** GET /conversations/:id: the conversation and a page of its messages (oldest first). */
export const conversationDetailSchema = conversationSchema.extend({
  messages: pageOf(conversationMessageSchema),
});
export type ConversationDetail = z.infer<typeof conversationDetailSchema>;

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

export const tracePassageSchema = z.object({
  marker: z.number(),
  chunkId: z.string(),
  documentId: z.string(),
  score: z.number(),
  similarity: z.number().nullable(),
  /** Per-branch ranks and scores. */
  provenance: z.array(passageProvenanceSchema),
  /** The reranker's model version and, for the learned reranker, each feature's contribution. */
  rerank: passageRerankSchema.optional(),
});
export type TracePassage = z.infer<typeof tracePassageSchema>;

/**
 * Everything needed to tell a retrieval problem from a generation problem, stored with every answer.
 */
export const retrievalTraceSchema = z.object({
  id: z.string(),
  messageId: z.string(),
  query: z.string(),
  standaloneQuery: z.string(),
  /** How the searched query was written (see queryRewriteSchema). */
  rewrite: queryRewriteSchema,
  /** Offline follow-ups: why it was searched alone or with the earlier question; null otherwise. */
  rewriteReason: followUpReasonSchema.nullable(),
  /** The resolved search settings; null for general-knowledge answers (no search). */
  settings: searchSettingsSchema.nullable(),
  /** The collections searched (empty for general-knowledge answers). */
  collectionIds: z.array(z.string()),
  expansions: expansionsSeenSchema,
  hyde: hydeSeenSchema,
  /** Whether adaptive expansion/HyDE ran or was skipped, and why (null when neither was adaptive). */
  adaptive: adaptiveExpansionDecisionSchema.nullable(),
  belowThreshold: z.boolean(),
  answerability: answerabilityVerdictSchema.nullable(),
  retrieved: z.array(tracePassageSchema),
  /** Version of the answer prompt (or of the extractive answerer); null when no generator ran. */
  promptVersion: z.string().nullable(),
  model: z.string().nullable(),
  generator: answerGeneratorSchema,
  source: answerSourceSchema,
  usage: chatTokenUsageSchema.nullable(),
  timings: chatTimingsSchema,
  notFound: z.boolean(),
  uncited: z.boolean(),
  droppedMarkers: z.array(z.number()),
  warnings: z.array(z.string()),
  createdAt: z.string(),
});
export type RetrievalTrace = z.infer<typeof retrievalTraceSchema>;
