/**
 * Shapes of the Lumina HTTP API as the web app reads them, in one file.
 *
 * Types the server already publishes in libs/shared are re-exported from there; the rest mirror the
 * server's DTOs (and libs/rag's SearchResult) until they move to libs/shared. Every answer is read
 * through the tolerant parsers in api-parsers.ts, so a missing optional field never breaks a page.
 */
import type {
  AdaptiveExpansionDecision,
  AnswerGenerator,
  AnswerabilityVerdict,
  AnswerSource,
  Citation,
  Conversation,
  ConversationMessage,
  DocumentStatus,
  Page,
  PageRange,
  SearchSettings,
} from '@lumina/shared';

export type {
  Ablation,
  AblationFigures,
  AblationRow,
  AblationSummary,
  AblationSwitches,
  AdaptiveExpansionDecision,
  AnswerMetrics,
  AnswerabilityVerdict,
  AuthIdentity,
  DocumentStatus,
  EvalFlip,
  EvalItemResult,
  EvalMetricComparison,
  EvalMetricInterval,
  EvalRun,
  EvalRunComparison,
  EvalRunStatus,
  EvalRunSummary,
  ExpectedSource,
  GenerationJobStatus,
  GenerationOutcome,
  ImportFormat,
  ImportReport,
  Page,
  RateInterval,
  QuestionBank,
  QuestionBankItem,
  QuestionDifficulty,
  QuestionTemplate,
  QuestionTemplateKind,
  SearchSettings,
} from '@lumina/shared';

// --- health -------------------------------------------------------------------------------------

export type ServiceStatus = 'up' | 'down' | (string & {});

/** What the server says about its language model, when it says anything (GET /health `llm`). */
export interface LlmStatus {
  /** False: no LLM_BASE_URL, the offline fallbacks answer. */
  configured: boolean;
  status: ServiceStatus;
  model?: string;
}

export interface HealthReport {
  status: 'ok' | 'degraded' | (string & {});
  database: { status: ServiceStatus; driver?: string };
  redis: { status: ServiceStatus };
  /** Absent on servers that do not report their LLM. */
  llm?: LlmStatus;
  [extra: string]: unknown;
}

// --- search -------------------------------------------------------------------------------------

/** Which retrieval branch found a passage, and where it ranked there ('original:bm25', 'hyde:dense', …). */
export interface Provenance {
  branch: string;
  rank: number;
  score: number;
}

export interface SearchResult {
  chunkId: string;
  documentId: string;
  documentTitle: string;
  headingPath: string[];
  anchor: string;
  text: string;
  /** Where the passage sits in its document (characters), when the server says. */
  spanStart: number | null;
  spanEnd: number | null;
  /** The pages of a paged source (PDF) the passage is on. */
  pages?: PageRange;
  score: number;
  /** Cosine similarity to the query, when a threshold asked for it. */
  similarity: number | null;
  provenance: Provenance[];
}

/** 'llm' when the language model wrote it, 'prf' for the offline pseudo-relevance feedback fallback. */
export type GeneratorSource = 'llm' | 'prf' | (string & {});

export interface SearchResponse {
  results: SearchResult[];
  expansions: { source: GeneratorSource; variants: string[] } | null;
  hyde: { source: GeneratorSource; passage: string } | null;
  /** Milliseconds per stage; `perBranch` is flattened to `branch:<name>` keys. */
  timings: Record<string, number>;
  warnings: string[];
  /** True when nothing cleared the similarity threshold: the documents don't say. */
  belowThreshold: boolean;
  /** The answerability decision taken before any model call; null when the server sent none. */
  answerability: AnswerabilityVerdict | null;
  /** Whether adaptive expansion / HyDE ran or was skipped; null when nothing was adaptive. */
  adaptive: AdaptiveExpansionDecision | null;
}

// --- chat ---------------------------------------------------------------------------------------

export type {
  AnswerGenerator,
  AnswerSource,
  Citation,
  CitationSpan,
  Conversation,
  ConversationMessage,
  PageRange,
  RetrievalTrace,
} from '@lumina/shared';

/** The `done` event, read tolerantly (timings and usage flattened to numbers). */
export interface ChatDone {
  conversationId: string | null;
  messageId: string | null;
  notFound: boolean;
  source: AnswerSource;
  /** 'llm', the offline 'extractive' answerer, or 'none' (the fixed not-found sentence). */
  generator: AnswerGenerator | null;
  model: string | null;
  timings: Record<string, number>;
  usage: Record<string, number>;
  /**
   * Whether POST /chat/general can answer this question (only after a not-found answer, only with a
   * language model); null when the server did not say.
   */
  generalKnowledgeAvailable: boolean | null;
}

/** One Server-Sent Event of POST /chat and POST /chat/general, as the web app handles it. */
export type ChatStreamEvent =
  | {
      type: 'retrieval';
      /** The passages ([1]..[n]), variants, HyDE and timings, in the same shape /rag/search has. */
      search: SearchResponse;
      conversationId: string | null;
      standaloneQuery: string | null;
    }
  | { type: 'token'; text: string }
  | { type: 'citations'; citations: Citation[]; dropped: number[]; uncited: boolean }
  | { type: 'done'; done: ChatDone }
  | {
      type: 'error';
      message: string;
      code: string | null;
      conversationId: string | null;
      messageId: string | null;
    };

/** What the web app sends to POST /chat: always the fully merged settings. */
export interface ChatRequest {
  conversationId?: string;
  message: string;
  settings: SearchSettings;
}

/** GET /conversations/:id: the conversation and a page of its messages (oldest first). */
export interface ConversationDetail extends Conversation {
  messages: Page<ConversationMessage>;
}

// --- documents ----------------------------------------------------------------------------------

export interface LuminaDocument {
  id: string;
  title: string;
  sourceName: string | null;
  mimeType: string | null;
  status: DocumentStatus;
  error: string | null;
  chunkCount: number;
  byteSize: number;
  createdAt: string;
  updatedAt: string;
}

export interface DocumentChunk {
  id: string;
  documentId: string;
  ordinal: number;
  headingPath: string[];
  anchor: string;
  text: string;
  spanStart: number | null;
  spanEnd: number | null;
}

export interface UploadedDocument {
  id: string;
  title: string;
  status: DocumentStatus;
  jobId: string | null;
  /** True when the same bytes were uploaded before: the existing document is returned. */
  duplicate: boolean;
}

/** A rejected file of a multi-file upload. */
export interface UploadRejection {
  filename: string;
  message: string;
}

export interface UploadResult {
  documents: UploadedDocument[];
  rejected: UploadRejection[];
}

/** One event of GET /documents/:id/events. */
export interface IngestionProgress {
  status: DocumentStatus;
  stage: string;
  done: number;
  total: number;
  error: string | null;
  chunkCount: number | null;
}

// --- errors -------------------------------------------------------------------------------------

/** The JSON body the server sends with an error status. */
export interface ApiErrorBody {
  statusCode?: number;
  message?: string | string[];
  error?: string;
}
