import { notFoundSentence } from '@lumina/shared';
import type {
  AnswerGenerator,
  AnswerSource,
  ChatErrorCode,
  ChatTimings,
  ChatTokenUsage,
  Citation,
  RetrievalTrace,
  RetrievedPassage,
  SearchSettings,
} from '@lumina/shared';
import type { SearchResult } from '../pipeline/search-result';
import type { ChatMessage, ChatModel } from '../ports/chat-model.port';
import { CompletionError } from '../ports/completion-error';
import type { EmbeddingProvider } from '../ports/embedding-provider.port';
import { ANSWER_PROMPT_VERSION, answerMessages } from './answer-prompt';
import { AnswerSanitizer } from './answer-sanitizer';
import { resolveCitations } from './citation-markers';
import { EXTRACTIVE_ANSWERER_VERSION, extractiveAnswer } from './extractive-answerer';
import type { ExtractiveOptions } from './extractive-answerer';
import { GENERAL_PROMPT_VERSION, generalKnowledgeMessages } from './general-prompt';
import { startsWithNotFound } from './not-found';
import { searchFollowUp } from './follow-up-query';
import type { FollowUpReason } from './follow-up-query';
import { parseStandaloneQuery, standaloneQueryMessages } from './standalone-query';
import type { HistoryTurn } from './standalone-query';

/** Sampling of grounded and general answers: deterministic, bounded. */
export const ANSWER_TEMPERATURE = 0;
export const ANSWER_MAX_TOKENS = 1024;

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

/** Told about the answer as it is written (the SSE stream; nothing for the evaluation). */
export interface AnswerSink {
  retrieval?(stage: RetrievalStage): void;
  token?(text: string): void;
}

export interface RetrievalStage {
  query: string;
  standaloneQuery: string;
  rewrite: RetrievalTrace['rewrite'];
  rewriteReason: FollowUpReason | null;
  search: SearchResult;
  passages: RetrievedPassage[];
  timings: { rewrite: number; search: number };
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

/**
 * Answer a question from the documents — the one code path of POST /chat and of the answers
 * evaluation. Rewrites a follow-up into a standalone query, searches with the request's settings,
 * then: refuses with the not-found sentence (in the question's language) without a model when nothing relevant was found; streams a
 * grounded LLM answer (sanitised: only valid citation markers, no links) when a model is configured;
 * or quotes the most similar sentences (the extractive answerer) offline. Never throws for a failing
 * model or search: the outcome says `failed` (or `cancelled` when the signal aborted) and keeps the
 * partial text.
 */
export async function generateAnswer(
  input: AnswerInput,
  deps: AnswerDeps,
  sink: AnswerSink = {},
): Promise<AnswerOutcome> {
  const now = deps.now ?? (() => performance.now());
  const started = now();
  const { signal } = input;
  const question = input.question.trim();
  const warnings: string[] = [];
  const outcome = newOutcome(question, {
    generator: 'none',
    source: 'documents',
    model: null,
    promptVersion: null,
    warnings,
  });
  const { timings } = outcome;
  const finish = (): AnswerOutcome => {
    timings.total = round(now() - started);
    return outcome;
  };
  const fail = (error: unknown, code: ChatErrorCode): AnswerOutcome => {
    recordFailure(outcome, error, code, signal);
    return finish();
  };
  const emit = (text: string): void => {
    if (!text) return;
    timings.firstToken ??= round(now() - started);
    sink.token?.(text);
  };

  // 1. A follow-up: with a model, the model rewrites it into a standalone query; offline (or when the
  //    model fails) it is searched alone first; only a question that points back is searched with the
  //    earlier question and with the earlier answer's cited words too, and the more answerable of the
  //    first two leads (searchFollowUp; the trace says which and why).
  const rewriteStart = now();
  let offlineFollowUp = false;
  if (input.history.some((turn) => turn.role === 'user')) {
    offlineFollowUp = true;
    if (deps.chatModel) {
      try {
        const reply = await deps.chatModel.complete({
          messages: standaloneQueryMessages(input.history, question),
          temperature: 0,
          maxTokens: 200,
          signal,
        });
        const rewritten = parseStandaloneQuery(reply.text);
        if (rewritten) {
          outcome.standaloneQuery = rewritten;
          outcome.rewrite = 'llm';
          offlineFollowUp = false;
        } else {
          warnings.push(
            'The model did not rewrite the follow-up question; it was searched as the offline rule decides.',
          );
        }
      } catch (error) {
        if (signal?.aborted) return fail(error, 'llm_failed');
        warnings.push(
          `Rewriting the follow-up question failed (${describe(error)}); it was searched as the offline rule decides.`,
        );
      }
    }
  }
  timings.rewrite = round(now() - rewriteStart);

  // 2. Retrieval.
  const searchStart = now();
  let search: SearchResult;
  try {
    if (offlineFollowUp) {
      const followUp = await searchFollowUp(question, input.history, (query) =>
        deps.search(query, input.settings, signal),
      );
      search = followUp.result;
      outcome.standaloneQuery = followUp.query;
      // `alone-leads`: the question itself was the query that leads (the earlier turn's searches only
      // filled the lower ranks), so it is not counted as rewritten.
      outcome.rewrite = followUp.reason === 'refers-back' ? 'history' : 'none';
      outcome.rewriteReason = followUp.reason;
    } else {
      search = await deps.search(outcome.standaloneQuery, input.settings, signal);
    }
  } catch (error) {
    timings.search = round(now() - searchStart);
    return fail(error, 'search_failed');
  }
  timings.search = round(now() - searchStart);
  outcome.search = search;
  warnings.push(...search.warnings);
  outcome.passages = search.results.map((hit, i) => ({
    marker: i + 1,
    chunkId: hit.chunkId,
    documentId: hit.documentId,
    title: hit.documentTitle,
    headingPath: hit.headingPath,
    anchor: hit.anchor,
    span: { start: hit.spanStart, end: hit.spanEnd },
    ...(hit.pages ? { pages: hit.pages } : {}),
    text: hit.text,
    score: hit.score,
    similarity: hit.similarity,
    provenance: hit.provenance,
    ...(hit.rerank ? { rerank: hit.rerank } : {}),
  }));
  sink.retrieval?.({
    query: question,
    standaloneQuery: outcome.standaloneQuery,
    rewrite: outcome.rewrite,
    rewriteReason: outcome.rewriteReason,
    search,
    passages: outcome.passages,
    timings: { rewrite: timings.rewrite, search: timings.search },
  });

  // 3. Nothing relevant, or the answerability decision says the documents do not answer: the fixed
  //    sentence, no model.
  if (search.belowThreshold || outcome.passages.length === 0 || search.answerability?.answerable === false) {
    outcome.text = notFoundSentence(search.language);
    outcome.notFound = true;
    emit(outcome.text);
    return finish();
  }

  const generationStart = now();
  try {
    if (deps.chatModel) {
      await writeWithModel(deps.chatModel, question, outcome, signal, emit);
    } else {
      await writeExtractive(deps, outcome, signal, emit);
    }
  } catch (error) {
    timings.generation = round(now() - generationStart);
    return fail(error, deps.chatModel ? 'llm_failed' : 'internal');
  }
  timings.generation = round(now() - generationStart);
  return finish();
}

async function writeWithModel(
  model: ChatModel,
  question: string,
  outcome: AnswerOutcome,
  signal: AbortSignal | undefined,
  emit: (text: string) => void,
): Promise<void> {
  outcome.generator = 'llm';
  outcome.model = model.modelId;
  outcome.promptVersion = ANSWER_PROMPT_VERSION;
  const messages = answerMessages(
    question,
    outcome.passages.map((p) => ({
      marker: p.marker,
      title: p.title,
      headingPath: p.headingPath,
      text: p.text,
    })),
    outcome.standaloneQuery,
  );
  const sanitizer = new AnswerSanitizer(outcome.passages.length);
  const conclude = (complete: boolean): void => {
    outcome.text = sanitizer.text;
    outcome.notFound = startsWithNotFound(outcome.text);
    const { citations, dropped } = resolveCitations(outcome.text, citable(outcome));
    outcome.citations = citations;
    outcome.droppedMarkers = [...new Set([...sanitizer.droppedMarkers, ...dropped])];
    // No citation is invented for an answer that gives none: it is flagged, in the message and the trace.
    outcome.uncited = complete && !outcome.notFound && citations.length === 0;
  };
  try {
    await streamInto(
      model,
      messages,
      signal,
      (text) => emit(sanitizer.push(text)),
      (usage) => {
        outcome.usage = usage;
      },
    );
  } catch (error) {
    // Keep (and show) what was written before the model broke off.
    emit(sanitizer.end());
    conclude(false);
    throw error;
  }
  emit(sanitizer.end());
  conclude(true);
}

async function writeExtractive(
  deps: AnswerDeps,
  outcome: AnswerOutcome,
  signal: AbortSignal | undefined,
  emit: (text: string) => void,
): Promise<void> {
  outcome.generator = 'extractive';
  outcome.model = deps.embedder.modelId;
  outcome.promptVersion = EXTRACTIVE_ANSWERER_VERSION;
  // The question's words as the index weighs them (rarest first), when the search read them.
  const terms = outcome.search?.answerability?.terms.map((t) => ({ term: t.term, weight: t.idf }));
  const answer = await extractiveAnswer(
    outcome.standaloneQuery,
    outcome.passages.map((p) => ({
      marker: p.marker,
      text: p.text,
      context: [p.title, ...p.headingPath].filter(Boolean).join(' › '),
    })),
    deps.embedder,
    deps.extractive,
    signal,
    terms && terms.length > 0 ? terms : undefined,
  );
  if (answer.notFound) {
    outcome.notFound = true;
    outcome.text = notFoundSentence(outcome.search?.language);
    emit(outcome.text);
    return;
  }
  // Citations are numbered 1, 2, 3… in the order the answer cites them, whatever the passages' ranks.
  const { text, passages } = renumberCitations(answer.text, outcome.passages);
  const lines = text.split('\n');
  lines.forEach((line, i) => emit(i === 0 ? line : `\n${line}`));
  outcome.text = text;
  // The stored passages carry the numbers the answer writes, so the trace's [n] is the answer's [n].
  outcome.passages = passages;
  outcome.citations = resolveCitations(text, citable({ passages })).citations;
}

/**
 * Rewrite an answer's markers so the cited passages are numbered contiguously in citing order; returns
 * the text and the passages renumbered to match (uncited ones keep numbers after the cited ones). The
 * passages stay in retrieval order: a marker names the passage whose `marker` it is, not a position.
 */
export function renumberCitations(
  text: string,
  passages: readonly RetrievedPassage[],
): { text: string; passages: RetrievedPassage[] } {
  const order: number[] = [];
  for (const match of text.matchAll(/\[(\d+)\]/g)) {
    const marker = Number(match[1]);
    if (!order.includes(marker) && passages.some((p) => p.marker === marker)) order.push(marker);
  }
  const next = new Map(order.map((marker, i) => [marker, i + 1]));
  let free = order.length;
  const renumbered = passages.map((p) => ({ ...p, marker: next.get(p.marker) ?? ++free }));
  return {
    text: text.replace(/\[(\d+)\]/g, (whole, n: string) =>
      next.has(Number(n)) ? `[${next.get(Number(n))}]` : whole,
    ),
    passages: renumbered,
  };
}

/**
 * The offline answer to a search that already ran (the evaluation's answer figures): the chat's own
 * code path, with the extractive answerer.
 */
export async function offlineAnswerOf(
  question: string,
  result: SearchResult,
  embedder: EmbeddingProvider,
  extractive?: Partial<ExtractiveOptions>,
): Promise<{ text: string; notFound: boolean; citations: Citation[]; generator: string }> {
  const outcome = await generateAnswer(
    { question, history: [], settings: result.settings },
    { search: async () => result, chatModel: null, embedder, extractive },
  );
  if (outcome.status !== 'complete') throw new Error(outcome.error?.detail ?? 'the answer failed');
  return {
    text: outcome.text,
    notFound: outcome.notFound,
    citations: outcome.citations,
    generator: outcome.promptVersion ?? outcome.generator,
  };
}

/**
 * The opt-in answer from the model's general knowledge (no retrieval, no citations; any marker or
 * link the model writes is removed).
 */
export async function generateGeneralAnswer(
  question: string,
  model: ChatModel,
  sink: AnswerSink = {},
  signal?: AbortSignal,
  now: () => number = () => performance.now(),
): Promise<AnswerOutcome> {
  const started = now();
  const outcome = newOutcome(question, {
    generator: 'llm',
    source: 'general-knowledge',
    model: model.modelId,
    promptVersion: GENERAL_PROMPT_VERSION,
    warnings: [],
  });
  const { timings } = outcome;
  const sanitizer = new AnswerSanitizer(0);
  const emit = (text: string): void => {
    if (!text) return;
    timings.firstToken ??= round(now() - started);
    sink.token?.(text);
  };
  try {
    await streamInto(
      model,
      generalKnowledgeMessages(question),
      signal,
      (text) => emit(sanitizer.push(text)),
      (u) => {
        outcome.usage = u;
      },
    );
    emit(sanitizer.end());
  } catch (error) {
    emit(sanitizer.end());
    recordFailure(outcome, error, 'llm_failed', signal);
  }
  outcome.text = sanitizer.text;
  outcome.droppedMarkers = [...sanitizer.droppedMarkers];
  timings.generation = round(now() - started);
  timings.total = timings.generation;
  return outcome;
}

/** A complete, empty outcome for `question`: what each generator fills in as it goes. */
function newOutcome(
  question: string,
  origin: Pick<AnswerOutcome, 'generator' | 'source' | 'model' | 'promptVersion' | 'warnings'>,
): AnswerOutcome {
  return {
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
    error: null,
  };
}

/**
 * The outcome of a step that threw: cancelled when the caller aborted, else failed with `code` (a model
 * timeout, a CompletionError flagged `timeout`, is always `llm_timeout`), a message for people and the
 * technical reason.
 */
function recordFailure(
  outcome: AnswerOutcome,
  error: unknown,
  code: ChatErrorCode,
  signal?: AbortSignal,
): void {
  if (signal?.aborted) {
    outcome.status = 'cancelled';
    outcome.error = { code, message: 'The request was cancelled.', detail: describe(error) };
    return;
  }
  const resolved = error instanceof CompletionError && error.timeout ? 'llm_timeout' : code;
  outcome.status = 'failed';
  outcome.error = { code: resolved, message: ANSWER_ERROR_MESSAGES[resolved], detail: describe(error) };
}

async function streamInto(
  model: ChatModel,
  messages: ChatMessage[],
  signal: AbortSignal | undefined,
  onText: (text: string) => void,
  onUsage: (usage: ChatTokenUsage) => void,
): Promise<void> {
  for await (const event of model.stream({
    messages,
    temperature: ANSWER_TEMPERATURE,
    maxTokens: ANSWER_MAX_TOKENS,
    signal,
  })) {
    if (event.type === 'token') onText(event.text);
    else onUsage(event.usage);
  }
  // An adapter that ends quietly on abort must not pass for a complete answer.
  signal?.throwIfAborted();
}

function citable(outcome: Pick<AnswerOutcome, 'passages'>) {
  return outcome.passages.map((p) => ({
    marker: p.marker,
    chunkId: p.chunkId,
    documentId: p.documentId,
    title: p.title,
    headingPath: p.headingPath,
    anchor: p.anchor,
    spanStart: p.span.start,
    spanEnd: p.span.end,
    ...(p.pages ? { pages: p.pages } : {}),
  }));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
