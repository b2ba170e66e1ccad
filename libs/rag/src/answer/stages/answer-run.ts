import type {
  AnswerGenerator,
  AnswerSource,
  ChatErrorCode,
  ChatRetrievalEvent,
  ChatTimings,
  ChatTokenUsage,
  Citation,
  RetrievalTrace,
  RetrievedPassage,
  SearchSettings,
} from '@lumina/shared';
import type { SearchResult } from '../../pipeline/search-result';
import { reason as describe, round } from '../../pipeline/stages/plan';
import type { ChatModel } from '../../ports/chat-model.port';
import { CompletionError } from '../../ports/completion-error';
import type { EmbeddingProvider } from '../../ports/embedding-provider.port';
import type { ExtractiveOptions } from '../extractive-answerer';
import type { FollowUpReason } from '../follow-up-query';
import type { HistoryTurn } from '../standalone-query';

/** What answering needs: the app's search, the chat model (null offline) and the embedder. */
export interface AnswerDeps {
  search(query: string, settings: Partial<SearchSettings>, signal?: AbortSignal): Promise<SearchResult>;
  chatModel: ChatModel | null;
  /** Used by the offline extractive answerer. */
  embedder: EmbeddingProvider;
  extractive?: Partial<ExtractiveOptions>;
  now?: () => number;
}

export interface AnswerInput {
  question: string;
  /** Earlier turns of the conversation, oldest first (complete messages only). */
  history: HistoryTurn[];
  settings: Partial<SearchSettings>;
  signal?: AbortSignal;
}

/** What the `retrieval` event says, less the ids the app gives it. */
export type RetrievalStage = Omit<ChatRetrievalEvent, 'conversationId' | 'userMessageId'>;

/** Told about the answer as it is written (the SSE stream; nothing for the evaluation). */
export interface AnswerSink {
  retrieval?(stage: RetrievalStage): void;
  token?(text: string): void;
}

export interface AnswerFailure {
  code: ChatErrorCode;
  /** A sentence a person understands. */
  message: string;
  /** What went wrong, for the log and the stored message. */
  detail: string;
}

export interface AnswerOutcome {
  status: 'complete' | 'failed' | 'cancelled';
  /** The clean answer text (also the partial text of a failed or cancelled answer). */
  text: string;
  notFound: boolean;
  generator: AnswerGenerator;
  source: AnswerSource;
  model: string | null;
  promptVersion: string | null;
  usage: ChatTokenUsage | null;
  citations: Citation[];
  droppedMarkers: number[];
  uncited: boolean;
  query: string;
  standaloneQuery: string;
  rewrite: RetrievalTrace['rewrite'];
  /** An offline follow-up: searched alone (`stands-alone`) or why the earlier turn was added; else null. */
  rewriteReason: FollowUpReason | null;
  /** The search's result; null when the search did not run (or failed). */
  search: SearchResult | null;
  passages: RetrievedPassage[];
  timings: ChatTimings;
  warnings: string[];
  error: AnswerFailure | null;
}

export const ANSWER_ERROR_MESSAGES: Record<ChatErrorCode, string> = {
  llm_timeout: 'The language model stopped responding, so the answer is incomplete. Please try again.',
  llm_failed:
    'The language model could not be reached or returned an error, so no complete answer could be written. ' +
    'Please try again later.',
  search_failed: 'Searching the documents failed, so no answer could be written. Please try again.',
  internal: 'Something went wrong while writing the answer. Please try again.',
  server_restarting:
    'The server is restarting, so the answer stops here; what was written so far is saved. Please ask ' +
    'again in a moment.',
};

/** One answer as its stages write it: the outcome they fill in, the clock, the signal and the sink. */
export interface AnswerRun {
  outcome: AnswerOutcome;
  signal: AbortSignal | undefined;
  now: () => number;
  started: number;
  /** Sends a piece of the answer's text to the sink (the first one times `firstToken`). */
  emit(text: string): void;
  sink: AnswerSink;
}

/** A run of `question` whose outcome starts complete and empty, from `origin`. */
export function startRun(
  question: string,
  origin: Pick<AnswerOutcome, 'generator' | 'source' | 'model' | 'promptVersion'>,
  sink: AnswerSink,
  signal: AbortSignal | undefined,
  now: () => number = () => performance.now(),
): AnswerRun {
  const started = now();
  const outcome: AnswerOutcome = {
    status: 'complete',
    text: '',
    notFound: false,
    ...origin,
    usage: null,
    citations: [],
    droppedMarkers: [],
    uncited: false,
    query: question,
    standaloneQuery: question,
    rewrite: 'none',
    rewriteReason: null,
    search: null,
    passages: [],
    timings: { rewrite: 0, search: 0, generation: 0, firstToken: null, total: 0 },
    warnings: [],
    error: null,
  };
  const emit = (text: string): void => {
    if (!text) return;
    outcome.timings.firstToken ??= round(now() - started);
    sink.token?.(text);
  };
  return { outcome, signal, now, emit, sink, started };
}

/** A stage that threw: the chat error code it stands for, and what was thrown. */
export class StageFailure extends Error {
  constructor(
    readonly code: ChatErrorCode,
    readonly reason: unknown,
  ) {
    super(describe(reason));
  }
}

/** Runs one stage, timed into `timings[name]`; what it throws becomes a StageFailure with `code`. */
export async function timed<T>(
  run: AnswerRun,
  name: 'rewrite' | 'search' | 'generation',
  code: ChatErrorCode,
  stage: () => Promise<T>,
): Promise<T> {
  const t0 = run.now();
  try {
    return await stage();
  } catch (error) {
    throw error instanceof StageFailure ? error : new StageFailure(code, error);
  } finally {
    run.outcome.timings[name] = round(run.now() - t0);
  }
}

/**
 * The outcome of a stage that threw: cancelled when the caller aborted, else failed with its code (a
 * model timeout, a CompletionError flagged `timeout`, is always `llm_timeout`), a message for people and
 * the technical reason.
 */
export function recordFailure(outcome: AnswerOutcome, failure: StageFailure, signal?: AbortSignal): void {
  const { code, reason } = failure;
  if (signal?.aborted) {
    outcome.status = 'cancelled';
    outcome.error = { code, message: 'The request was cancelled.', detail: describe(reason) };
    return;
  }
  const resolved = reason instanceof CompletionError && reason.timeout ? 'llm_timeout' : code;
  outcome.status = 'failed';
  outcome.error = { code: resolved, message: ANSWER_ERROR_MESSAGES[resolved], detail: describe(reason) };
}
