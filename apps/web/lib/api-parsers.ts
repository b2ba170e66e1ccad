/**
 * Tolerant readers of the server's JSON: required fields are checked (null when missing, so the
 * client reports an unreadable answer), optional ones get defaults. Nothing here throws.
 */
import { DOCUMENT_STATUSES } from '@lumina/shared';
import type {
  Ablation,
  AblationRow,
  AdaptiveExpansionDecision,
  AnswerGenerator,
  AnswerMetrics,
  AnswerabilityVerdict,
  AuthIdentity,
  Citation,
  CitationSpan,
  PageRange,
  ChatDone,
  ChatStreamEvent,
  Conversation,
  ConversationDetail,
  ConversationMessage,
  DocumentChunk,
  DocumentStatus,
  EvalItemResult,
  EvalRun,
  HealthReport,
  IngestionProgress,
  LlmStatus,
  LuminaDocument,
  Page,
  Provenance,
  RateInterval,
  RetrievalTrace,
  SearchResponse,
  SearchResult,
  UploadResult,
} from './api-types';

export type UnknownRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is UnknownRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

function optStr(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export function num(value: unknown, fallback = 0): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return fallback;
}

function optNum(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function numbers(value: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (!isRecord(value)) return out;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'number' && Number.isFinite(item)) out[key] = item;
  }
  return out;
}

// --- health -------------------------------------------------------------------------------------

function parseLlm(value: unknown): LlmStatus | undefined {
  if (!isRecord(value)) return undefined;
  const configured =
    typeof value.configured === 'boolean' ? value.configured : value.status !== 'not-configured';
  return {
    configured,
    status: str(value.status, configured ? 'unknown' : 'not-configured'),
    ...(typeof value.model === 'string' ? { model: value.model } : {}),
  };
}

// --- auth ---------------------------------------------------------------------------------------

/** GET /auth/me: who the key (or, on a local server, this machine) is. */
export function parseIdentity(json: unknown): AuthIdentity | null {
  if (!isRecord(json) || typeof json.id !== 'string' || typeof json.name !== 'string') return null;
  if (json.role !== 'admin' && json.role !== 'user') return null;
  return { id: json.id, name: json.name, role: json.role, mode: json.mode === 'local' ? 'local' : 'keys' };
}

export function parseHealth(json: unknown): HealthReport | null {
  if (!isRecord(json) || typeof json.status !== 'string') return null;
  const database = isRecord(json.database) ? json.database : {};
  const redis = isRecord(json.redis) ? json.redis : {};
  const llm = parseLlm(json.llm);
  return {
    ...json,
    status: json.status,
    database: {
      status: str(database.status, 'unknown'),
      ...(typeof database.driver === 'string' ? { driver: database.driver } : {}),
    },
    redis: { status: str(redis.status, 'unknown') },
    ...(llm ? { llm } : { llm: undefined }),
  };
}

// --- search -------------------------------------------------------------------------------------

function parseProvenance(value: unknown): Provenance[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((item) => ({
    branch: str(item.branch, 'unknown'),
    rank: num(item.rank),
    score: num(item.score),
  }));
}

export function parseSearchResult(value: UnknownRecord): SearchResult {
  return {
    chunkId: str(value.chunkId ?? value.id),
    documentId: str(value.documentId),
    documentTitle: str(value.documentTitle ?? value.title, 'Untitled document'),
    headingPath: strings(value.headingPath),
    anchor: str(value.anchor),
    text: str(value.text),
    spanStart: optNum(value.spanStart),
    spanEnd: optNum(value.spanEnd),
    ...withPages(value.pages),
    score: num(value.score),
    similarity: optNum(value.similarity),
    provenance: parseProvenance(value.provenance),
  };
}

/** Accepts the libs/rag shape ({ source, variants }) and a bare list of variants. */
function parseExpansions(value: unknown): SearchResponse['expansions'] {
  if (Array.isArray(value)) {
    const variants = strings(value);
    return variants.length ? { source: 'unknown', variants } : null;
  }
  if (!isRecord(value)) return null;
  return { source: str(value.source, 'unknown'), variants: strings(value.variants ?? value.queries) };
}

function parseHyde(value: unknown): SearchResponse['hyde'] {
  if (typeof value === 'string') return value ? { source: 'unknown', passage: value } : null;
  if (!isRecord(value) || typeof value.passage !== 'string') return null;
  return { source: str(value.source, 'unknown'), passage: value.passage };
}

/** Flattens { total, perBranch: { 'original:bm25': 3 }, llm, … } into { total, 'branch:original:bm25': 3, llm }. */
export function flattenTimings(value: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (!isRecord(value)) return out;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'number' && Number.isFinite(item)) out[key] = item;
    else if (isRecord(item)) {
      const prefix = key === 'perBranch' ? 'branch' : key;
      for (const [inner, ms] of Object.entries(numbers(item))) out[`${prefix}:${inner}`] = ms;
    }
  }
  return out;
}

export function parseSearchResponse(json: unknown): SearchResponse | null {
  if (!isRecord(json) || !Array.isArray(json.results)) return null;
  return {
    results: json.results.filter(isRecord).map(parseSearchResult),
    expansions: parseExpansions(json.expansions),
    hyde: parseHyde(json.hyde),
    timings: flattenTimings(json.timings),
    warnings: strings(json.warnings),
    belowThreshold: json.belowThreshold === true,
    answerability: parseAnswerability(json.answerability),
    adaptive: parseAdaptive(json.adaptive),
  };
}

// --- answerability ------------------------------------------------------------------------------

/**
 * The answerability decision (score, threshold, features and their contributions). Null when absent
 * or unreadable: servers before the decision existed send none.
 */
export function parseAnswerability(value: unknown): AnswerabilityVerdict | null {
  if (!isRecord(value)) return null;
  const score = optNum(value.score);
  const threshold = optNum(value.threshold);
  if (score === null || threshold === null) return null;
  return {
    modelVersion: str(value.modelVersion, 'unknown'),
    score,
    threshold,
    answerable: typeof value.answerable === 'boolean' ? value.answerable : score >= threshold,
    features: numbers(value.features),
    contributions: numbers(value.contributions),
    terms: (Array.isArray(value.terms) ? value.terms : [])
      .filter(isRecord)
      .flatMap((term) =>
        typeof term.term === 'string' ? [{ term: term.term, df: num(term.df), idf: num(term.idf) }] : [],
      ),
  };
}

const ADAPTIVE_BRANCHES = ['expansion', 'hyde'] as const;

/** The adaptive-expansion decision; null when absent (nothing was adaptive, or an older server). */
export function parseAdaptive(value: unknown): AdaptiveExpansionDecision | null {
  if (!isRecord(value)) return null;
  const branches = (list: unknown) =>
    ADAPTIVE_BRANCHES.filter((branch) => Array.isArray(list) && list.includes(branch));
  return {
    policyVersion: optStr(value.policyVersion),
    confidence: optNum(value.confidence),
    threshold: optNum(value.threshold),
    skipped: branches(value.skipped),
    ran: branches(value.ran),
    features: numbers(value.features),
    contributions: numbers(value.contributions),
  };
}

function parseRateInterval(value: unknown): RateInterval | null {
  if (!isRecord(value)) return null;
  const items = optNum(value.items);
  const rate = optNum(value.rate);
  if (items === null || rate === null) return null;
  return {
    items,
    count: num(value.count, Math.round(rate * items)),
    rate,
    low: num(value.low, rate),
    high: num(value.high, rate),
  };
}

const EMPTY_RATE: RateInterval = { items: 0, count: 0, rate: 0, low: 0, high: 0 };

/** An evaluation run's answer figures; null for runs made before they existed. */
export function parseAnswerMetrics(value: unknown): AnswerMetrics | null {
  if (!isRecord(value)) return null;
  const inScopeRefused = parseRateInterval(value.inScopeRefused);
  const outOfScopeAnswered = parseRateInterval(value.outOfScopeAnswered);
  if (!inScopeRefused && !outOfScopeAnswered) return null;
  return {
    inScopeRefused: inScopeRefused ?? EMPTY_RATE,
    outOfScopeAnswered: outOfScopeAnswered ?? EMPTY_RATE,
    auc: optNum(value.auc),
    support: parseRateInterval(value.support) ?? EMPTY_RATE,
    modelVersion: optStr(value.modelVersion),
    generator: optStr(value.generator),
  };
}

function parseEvalItem(value: unknown): EvalItemResult | null {
  if (!isRecord(value) || typeof value.itemId !== 'string') return null;
  const item = value as unknown as EvalItemResult;
  return {
    ...item,
    question: str(value.question),
    inScope: value.inScope !== false,
    ranking: strings(value.ranking),
    metrics: numbers(value.metrics),
    refused: value.refused === true,
    warnings: strings(value.warnings),
    answerability: parseAnswerability(value.answerability),
    answer: typeof value.answer === 'string' ? value.answer : null,
    supported: typeof value.supported === 'boolean' ? value.supported : null,
  };
}

/** GET /eval-runs/:id: the run with its items; the answer fields are read defensively. */
export function parseEvalRun(json: unknown): EvalRun | null {
  if (!isRecord(json) || typeof json.id !== 'string') return null;
  const run = json as unknown as EvalRun;
  return {
    ...run,
    perItem: Array.isArray(json.perItem)
      ? json.perItem.map(parseEvalItem).filter((item): item is EvalItemResult => item !== null)
      : [],
    answers: parseAnswerMetrics(json.answers),
  };
}

/** GET /ablations/:id: the matrix; rows without a run id or switches are dropped. */
export function parseAblation(json: unknown): Ablation | null {
  if (!isRecord(json) || typeof json.id !== 'string' || !Array.isArray(json.rows)) return null;
  const rows = json.rows.filter(
    (row): row is AblationRow => isRecord(row) && typeof row.runId === 'string' && isRecord(row.switches),
  );
  return {
    ...(json as unknown as Ablation),
    rows: rows.map((row) => ({ ...row, figures: isRecord(row.figures) ? row.figures : null })),
    bestRunId: typeof json.bestRunId === 'string' ? json.bestRunId : null,
    finished: num(json.finished, 0),
    total: num(json.total, rows.length),
  };
}

// --- chat ---------------------------------------------------------------------------------------

/** `{ first, last }` pages, 1-based; anything else (absent, reversed, fractional) is no pages. */
export function parsePages(value: unknown): PageRange | undefined {
  if (!isRecord(value)) return undefined;
  const first = optNum(value.first);
  const last = optNum(value.last);
  if (first === null || !Number.isInteger(first) || first < 1) return undefined;
  if (last === null) return { first, last: first };
  return Number.isInteger(last) && last >= first ? { first, last } : undefined;
}

function withPages(value: unknown): { pages?: PageRange } {
  const pages = parsePages(value);
  return pages ? { pages } : {};
}

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

/** A retrieved passage of the chat's `retrieval` event, in the /rag/search result shape. */
function passageAsResult(value: UnknownRecord): SearchResult {
  const span = parseSpan(value);
  const known = span.end > span.start;
  return {
    ...parseSearchResult(value),
    documentTitle: str(value.title ?? value.documentTitle, 'Untitled document'),
    spanStart: known ? span.start : optNum(value.spanStart),
    spanEnd: known ? span.end : optNum(value.spanEnd),
  };
}

/** The `retrieval` event: passages numbered [1]..[n] (sorted by marker), variants, HyDE, timings. */
export function parseRetrievalEvent(record: UnknownRecord): SearchResponse {
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
    results: ordered.map(passageAsResult),
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

function parseDone(data: UnknownRecord): ChatDone {
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
export function parseChatEvent(event: string, data: string): ChatStreamEvent | null {
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

// --- documents ----------------------------------------------------------------------------------

export function parseDocumentStatus(value: unknown): DocumentStatus | null {
  return typeof value === 'string' && (DOCUMENT_STATUSES as readonly string[]).includes(value)
    ? (value as DocumentStatus)
    : null;
}

export function parseDocument(value: unknown): LuminaDocument | null {
  if (!isRecord(value) || typeof value.id !== 'string') return null;
  return {
    id: value.id,
    title: str(value.title) || str(value.sourceName) || 'Untitled document',
    sourceName: optStr(value.sourceName ?? value.filename),
    mimeType: optStr(value.mimeType),
    status: parseDocumentStatus(value.status) ?? 'queued',
    error: optStr(value.error),
    chunkCount: num(value.chunkCount),
    byteSize: num(value.byteSize),
    createdAt: str(value.createdAt),
    updatedAt: str(value.updatedAt ?? value.createdAt),
  };
}

export function parseChunk(value: unknown): DocumentChunk | null {
  if (!isRecord(value) || typeof value.id !== 'string') return null;
  return {
    id: value.id,
    documentId: str(value.documentId),
    ordinal: num(value.ordinal),
    headingPath: strings(value.headingPath),
    anchor: str(value.anchor),
    text: str(value.text),
    spanStart: optNum(value.spanStart),
    spanEnd: optNum(value.spanEnd),
  };
}

/** Reads `{ items, page, limit, total, totalPages }`; rows that cannot be read are left out. */
export function parsePage<T>(json: unknown, item: (value: unknown) => T | null): Page<T> | null {
  if (!isRecord(json) || !Array.isArray(json.items)) return null;
  const items = json.items.map(item).filter((row): row is T => row !== null);
  const limit = Math.max(1, num(json.limit, items.length || 1));
  const total = num(json.total, items.length);
  return {
    items,
    page: Math.max(1, num(json.page, 1)),
    limit,
    total,
    totalPages: num(json.totalPages, Math.ceil(total / limit)),
  };
}

/** POST /documents: `{ documents: [...] }`, `{ items: [...] }` or a bare list, with rejections if any. */
export function parseUploadResult(json: unknown): UploadResult | null {
  const list = Array.isArray(json)
    ? json
    : isRecord(json) && Array.isArray(json.documents)
      ? json.documents
      : isRecord(json) && Array.isArray(json.items)
        ? json.items
        : isRecord(json) && typeof json.id === 'string'
          ? [json]
          : null;
  if (!list) return null;
  const documents = list.filter(isRecord).flatMap((row) => {
    const id = optStr(row.id ?? row.documentId);
    if (!id) return [];
    return [
      {
        id,
        title: str(row.title) || str(row.sourceName) || str(row.filename) || 'Untitled document',
        status: parseDocumentStatus(row.status) ?? 'queued',
        jobId: optStr(row.jobId),
        duplicate: row.duplicate === true || row.existing === true,
      },
    ];
  });
  const rejectedRaw = isRecord(json) && Array.isArray(json.rejected) ? json.rejected : [];
  const rejected = rejectedRaw.filter(isRecord).map((row) => ({
    filename: str(row.filename ?? row.name, 'a file'),
    message: str(row.message ?? row.reason ?? row.error, 'The server did not accept this file.'),
  }));
  return { documents, rejected };
}

/** One event of GET /documents/:id/events: `{ status?, stage, done, total, error? }`. */
export function parseIngestionProgress(data: string, previous: DocumentStatus): IngestionProgress | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isRecord(json)) return null;
  const progress = isRecord(json.progress) ? { ...json, ...json.progress } : json;
  const stage = str(progress.stage);
  const status = parseDocumentStatus(progress.status) ?? parseDocumentStatus(stage) ?? previous;
  return {
    status,
    stage: stage || status,
    done: num(progress.done),
    total: num(progress.total),
    error: optStr(progress.error ?? progress.message ?? progress.reason),
    chunkCount: optNum(progress.chunkCount),
  };
}
