import type { ImportRequest, QuestionTemplateInput, SearchSettings } from '@lumina/shared';
import {
  abortedError,
  ApiError,
  httpError,
  invalidResponseError,
  timeoutError,
  unreachableError,
} from './api-errors';
import { API_OPERATIONS, buildPath, buildQuery, type ApiOperation } from './api-operations';
import {
  isRecord,
  parseAblation,
  parseChatEvent,
  parseChunk,
  parseConversation,
  parseConversationDetail,
  parseDocument,
  parseEvalRun,
  parseHealth,
  parseIdentity,
  parseIngestionProgress,
  parsePage,
  parseSearchResponse,
  parseTrace,
  parseUploadResult,
} from './api-parsers';
import type {
  Ablation,
  AblationSummary,
  AuthIdentity,
  ChatRequest,
  ChatStreamEvent,
  Conversation,
  ConversationDetail,
  DocumentChunk,
  DocumentStatus,
  EvalRun,
  EvalRunComparison,
  EvalRunSummary,
  GenerationJobStatus,
  HealthReport,
  ImportReport,
  IngestionProgress,
  LuminaDocument,
  Page,
  QuestionBank,
  QuestionBankItem,
  QuestionTemplate,
  RetrievalTrace,
  SearchResponse,
  UploadResult,
} from './api-types';
import { readSse } from './sse';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface ApiClientOptions {
  /** e.g. http://127.0.0.1:3000 (a trailing slash is ignored). */
  baseUrl: string;
  /** Injected in tests; defaults to the global fetch. */
  fetch?: FetchLike;
  /** The API key signed in with, sent as the `x-api-key` header when set. */
  apiKey?: () => string | null;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface PageQuery {
  page?: number;
  limit?: number;
}

type QueryValues = Record<string, string | number | boolean | undefined | null>;

interface CallSpec {
  params?: Record<string, string>;
  query?: QueryValues;
  /** JSON-encoded unless it is FormData. */
  body?: unknown;
  signal?: AbortSignal;
}

interface JsonAnswer {
  status: number;
  ok: boolean;
  json: unknown;
  text: string;
  headers: Headers;
}

export type ItemInput = Partial<
  Pick<
    QuestionBankItem,
    'question' | 'expectedAnswer' | 'inScope' | 'expectedSources' | 'language' | 'tags' | 'difficulty'
  >
>;

export interface BankInput {
  name?: string;
  description?: string;
  templateId?: string | null;
  tags?: string[];
}

export type ImportInput = ImportRequest;

/** Every failure is thrown as an ApiError whose message is a sentence for a person. */
export function createApiClient(options: ApiClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  function urlOf(operation: ApiOperation, spec: CallSpec): string {
    return `${baseUrl}${buildPath(operation.path, spec.params)}${buildQuery(spec.query)}`;
  }

  function headersFor(body: unknown, accept: string): Record<string, string> {
    // Tells the API a keyless form upload (local mode) comes from this app, not a form on another site.
    const headers: Record<string, string> = { Accept: accept, 'x-lumina-client': 'web' };
    if (body !== undefined && !(body instanceof FormData)) headers['Content-Type'] = 'application/json';
    const key = options.apiKey?.();
    if (key) headers['x-api-key'] = key;
    return headers;
  }

  /**
   * Sends one request. The operation's timeout covers the whole call, or only the wait for the
   * response headers when `untilHeaders` (streams): the returned `release` ends the timer and the
   * link to the caller's signal.
   */
  async function send(
    operation: ApiOperation,
    spec: CallSpec,
    accept: string,
    untilHeaders: boolean,
  ): Promise<{ response: Response; release: () => void; timedOut: () => boolean }> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, operation.timeoutMs);
    const { signal } = spec;
    const forwardAbort = () => controller.abort();
    if (signal?.aborted) controller.abort();
    signal?.addEventListener('abort', forwardAbort, { once: true });
    const release = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forwardAbort);
    };
    try {
      const body = spec.body;
      const response = await doFetch(urlOf(operation, spec), {
        method: operation.method,
        headers: headersFor(body, accept),
        body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
        cache: 'no-store',
        credentials: 'omit',
        signal: controller.signal,
      });
      if (untilHeaders) clearTimeout(timer);
      return { response, release, timedOut: () => timedOut };
    } catch (error) {
      release();
      if (error instanceof ApiError) throw error;
      if (timedOut) throw timeoutError(operation);
      if (signal?.aborted) throw abortedError(operation);
      throw unreachableError(operation, baseUrl, error);
    }
  }

  async function call(operation: ApiOperation, spec: CallSpec = {}): Promise<JsonAnswer> {
    const { response, release, timedOut } = await send(operation, spec, 'application/json', false);
    try {
      const text = await response.text();
      return {
        status: response.status,
        ok: response.ok,
        json: parseJson(text),
        text,
        headers: response.headers,
      };
    } catch (error) {
      if (timedOut()) throw timeoutError(operation);
      if (spec.signal?.aborted) throw abortedError(operation);
      throw unreachableError(operation, baseUrl, error);
    } finally {
      release();
    }
  }

  /** A JSON call whose answer is read by `parse`; errors and unreadable answers become ApiErrors. */
  async function json<T>(
    operation: ApiOperation,
    spec: CallSpec,
    parse: (json: unknown) => T | null,
    expected: string,
  ): Promise<T> {
    const { status, ok, json: body } = await call(operation, spec);
    if (!ok) throw httpError({ status, body, operation });
    const parsed = parse(body);
    if (parsed === null) throw invalidResponseError(operation, status, expected);
    return parsed;
  }

  async function noContent(operation: ApiOperation, spec: CallSpec): Promise<void> {
    const { status, ok, json: body } = await call(operation, spec);
    if (!ok) throw httpError({ status, body, operation });
  }

  /** Opens an SSE response; a non-2xx answer is thrown as an ApiError before any event. */
  async function* stream(
    operation: ApiOperation,
    spec: CallSpec,
  ): AsyncGenerator<{ event: string; data: string }> {
    const { response, release } = await send(operation, spec, 'text/event-stream', true);
    try {
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        throw httpError({ status: response.status, body: parseJson(text), operation });
      }
      if (!response.body) throw invalidResponseError(operation, response.status, 'expected an event stream');
      const type = response.headers.get('content-type') ?? '';
      if (!type.includes('text/event-stream')) {
        throw invalidResponseError(
          operation,
          response.status,
          `expected an event stream, got ${type || 'no type'}`,
        );
      }
      try {
        for await (const message of readSse(response.body, spec.signal)) yield message;
      } catch (error) {
        if (spec.signal?.aborted) return;
        throw unreachableError(operation, baseUrl, error);
      }
    } finally {
      release();
    }
  }

  async function* chatEvents(operation: ApiOperation, spec: CallSpec): AsyncGenerator<ChatStreamEvent> {
    for await (const message of stream(operation, spec)) {
      const event = parseChatEvent(message.event, message.data);
      if (event) yield event;
    }
  }

  const pageQuery = (query: object = {}): QueryValues => ({ ...query }) as QueryValues;
  const ops = API_OPERATIONS;

  return {
    baseUrl,

    // --- health and search ---

    /** GET /health. A degraded server still answers (503) with its report. */
    async getHealth({ signal }: RequestOptions = {}): Promise<HealthReport> {
      const operation = ops.health;
      const { status, ok, json: body } = await call(operation, { signal });
      const report = parseHealth(body);
      if (report && (ok || status === 503)) return report;
      if (!ok) throw httpError({ status, body, operation });
      throw invalidResponseError(operation, status, 'expected { status, database, redis }');
    },

    /** GET /auth/me: the key's name and role (on a local server without a key: the local admin). */
    getIdentity({ signal }: RequestOptions = {}): Promise<AuthIdentity> {
      return json(ops.me, { signal }, parseIdentity, 'expected { id, name, role, mode }');
    },

    /** POST /rag/search with the fully merged settings, so the server never guesses. */
    search(
      query: string,
      settings: SearchSettings,
      { signal }: RequestOptions = {},
    ): Promise<SearchResponse> {
      return json(
        ops.search,
        { body: { query, settings }, signal },
        parseSearchResponse,
        'expected { results: [...] }',
      );
    },

    // --- chat ---

    /** POST /chat: the answer as it streams (retrieval, tokens, citations, done or error). */
    streamChat(request: ChatRequest, { signal }: RequestOptions = {}): AsyncGenerator<ChatStreamEvent> {
      const body: Record<string, unknown> = { message: request.message, settings: request.settings };
      if (request.conversationId) body.conversationId = request.conversationId;
      return chatEvents(ops.chat, { body, signal });
    },

    /** POST /chat/general after a not-found answer: the LLM answers without the documents. */
    streamGeneralAnswer(
      input: { conversationId: string; messageId: string },
      { signal }: RequestOptions = {},
    ): AsyncGenerator<ChatStreamEvent> {
      return chatEvents(ops.chatGeneral, { body: input, signal });
    },

    listConversations(query: PageQuery = {}, { signal }: RequestOptions = {}): Promise<Page<Conversation>> {
      return json(
        ops.listConversations,
        { query: pageQuery(query), signal },
        (body) => parsePage(body, parseConversation),
        'expected a page of conversations',
      );
    },

    getConversation(id: string, { signal }: RequestOptions = {}): Promise<ConversationDetail> {
      return json(
        ops.getConversation,
        { params: { id }, signal },
        parseConversationDetail,
        'expected a conversation',
      );
    },

    renameConversation(id: string, title: string, { signal }: RequestOptions = {}): Promise<Conversation> {
      return json(
        ops.renameConversation,
        { params: { id }, body: { title }, signal },
        parseConversation,
        'expected a conversation',
      );
    },

    deleteConversation(id: string, { signal }: RequestOptions = {}): Promise<void> {
      return noContent(ops.deleteConversation, { params: { id }, signal });
    },

    getTrace(messageId: string, { signal }: RequestOptions = {}): Promise<RetrievalTrace> {
      return json(ops.getTrace, { params: { id: messageId }, signal }, parseTrace, 'expected a trace');
    },

    // --- documents ---

    listDocuments(
      query: PageQuery & { search?: string; status?: DocumentStatus } = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<LuminaDocument>> {
      return json(
        ops.listDocuments,
        { query: pageQuery(query), signal },
        (body) => parsePage(body, parseDocument),
        'expected a page of documents',
      );
    },

    getDocument(id: string, { signal }: RequestOptions = {}): Promise<LuminaDocument> {
      return json(ops.getDocument, { params: { id }, signal }, parseDocument, 'expected a document');
    },

    /** A page of the document's passages; with `chunk` (and no `page`), the page that holds that passage. */
    listChunks(
      id: string,
      query: PageQuery & { chunk?: string } = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<DocumentChunk>> {
      return json(
        ops.listChunks,
        { params: { id }, query: pageQuery(query), signal },
        (body) => parsePage(body, parseChunk),
        'expected a page of passages',
      );
    },

    /** POST /documents (multipart, field `files`): accepted at once, ingested in the background. */
    uploadDocuments(files: readonly File[], { signal }: RequestOptions = {}): Promise<UploadResult> {
      const form = new FormData();
      for (const file of files) form.append('files', file, file.name);
      return json(
        ops.uploadDocuments,
        { body: form, signal },
        parseUploadResult,
        'expected the uploaded documents',
      );
    },

    createTextDocument(
      input: { title: string; text: string },
      { signal }: RequestOptions = {},
    ): Promise<UploadResult> {
      return json(
        ops.createTextDocument,
        { body: input, signal },
        parseUploadResult,
        'expected the new document',
      );
    },

    deleteDocument(id: string, { signal }: RequestOptions = {}): Promise<void> {
      return noContent(ops.deleteDocument, { params: { id }, signal });
    },

    /** GET /documents/:id/events: live progress until the document is indexed, failed or cancelled. */
    async *documentEvents(
      id: string,
      current: DocumentStatus,
      { signal }: RequestOptions = {},
    ): AsyncGenerator<IngestionProgress> {
      let status = current;
      for await (const message of stream(ops.documentEvents, { params: { id }, signal })) {
        const progress = parseIngestionProgress(message.data, status);
        if (!progress) continue;
        status = progress.status;
        yield progress;
      }
    },

    // --- question banks ---

    listQuestionBanks(
      query: PageQuery & { search?: string; templateId?: string } = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<QuestionBank>> {
      return json(
        ops.listQuestionBanks,
        { query: pageQuery(query), signal },
        (body) => parsePage(body, asRecordWithId<QuestionBank>),
        'expected a page of question banks',
      );
    },

    getQuestionBank(id: string, { signal }: RequestOptions = {}): Promise<QuestionBank> {
      return json(
        ops.getQuestionBank,
        { params: { id }, signal },
        asRecordWithId<QuestionBank>,
        'expected a question bank',
      );
    },

    createQuestionBank(input: BankInput, { signal }: RequestOptions = {}): Promise<QuestionBank> {
      return json(
        ops.createQuestionBank,
        { body: input, signal },
        asRecordWithId<QuestionBank>,
        'expected the new question bank',
      );
    },

    updateQuestionBank(id: string, input: BankInput, { signal }: RequestOptions = {}): Promise<QuestionBank> {
      return json(
        ops.updateQuestionBank,
        { params: { id }, body: input, signal },
        asRecordWithId<QuestionBank>,
        'expected the question bank',
      );
    },

    deleteQuestionBank(id: string, { signal }: RequestOptions = {}): Promise<void> {
      return noContent(ops.deleteQuestionBank, { params: { id }, signal });
    },

    listQuestionBankItems(
      id: string,
      query: PageQuery & { tag?: string; inScope?: boolean } = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<QuestionBankItem>> {
      return json(
        ops.listQuestionBankItems,
        { params: { id }, query: pageQuery(query), signal },
        (body) => parsePage(body, asRecordWithId<QuestionBankItem>),
        'expected a page of questions',
      );
    },

    /** One item, or several at once (`{ items }`). */
    async createQuestionBankItems(
      id: string,
      items: ItemInput[],
      { signal }: RequestOptions = {},
    ): Promise<QuestionBankItem[]> {
      const body = items.length === 1 ? items[0] : { items };
      return json(
        ops.createQuestionBankItems,
        { params: { id }, body, signal },
        (answer) => {
          if (Array.isArray(answer))
            return answer
              .map((row) => asRecordWithId<QuestionBankItem>(row))
              .filter((row): row is QuestionBankItem => row !== null);
          if (isRecord(answer) && Array.isArray(answer.items))
            return answer.items
              .map((row) => asRecordWithId<QuestionBankItem>(row))
              .filter((row): row is QuestionBankItem => row !== null);
          const one = asRecordWithId<QuestionBankItem>(answer);
          return one ? [one] : null;
        },
        'expected the new questions',
      );
    },

    updateQuestionBankItem(
      id: string,
      itemId: string,
      input: ItemInput,
      { signal }: RequestOptions = {},
    ): Promise<QuestionBankItem> {
      return json(
        ops.updateQuestionBankItem,
        { params: { id, itemId }, body: input, signal },
        asRecordWithId<QuestionBankItem>,
        'expected the question',
      );
    },

    deleteQuestionBankItem(id: string, itemId: string, { signal }: RequestOptions = {}): Promise<void> {
      return noContent(ops.deleteQuestionBankItem, { params: { id, itemId }, signal });
    },

    importQuestionBankItems(
      id: string,
      input: ImportInput,
      { signal }: RequestOptions = {},
    ): Promise<ImportReport> {
      return json(
        ops.importQuestionBankItems,
        { params: { id }, body: input, signal },
        (body) =>
          isRecord(body) && typeof body.accepted === 'number'
            ? ({ added: body.accepted, updated: 0, unchanged: 0, ...body } as unknown as ImportReport)
            : null,
        'expected an import report',
      );
    },

    /** GET /question-banks/:id/export: the file's text and a file name for saving it. */
    async exportQuestionBankItems(
      id: string,
      format: 'json' | 'csv',
      { signal }: RequestOptions = {},
    ): Promise<{ text: string; filename: string; type: string }> {
      const operation = ops.exportQuestionBankItems;
      const {
        status,
        ok,
        json: body,
        text,
        headers,
      } = await call(operation, { params: { id }, query: { format }, signal });
      if (!ok) throw httpError({ status, body, operation });
      const disposition = headers.get('content-disposition') ?? '';
      const named = /filename="?([^";]+)"?/.exec(disposition)?.[1];
      return {
        text,
        filename: named ?? `question-bank-${id}.${format}`,
        type: headers.get('content-type') ?? (format === 'csv' ? 'text/csv' : 'application/json'),
      };
    },

    generateQuestionBankItems(
      id: string,
      input: { templateId: string; documentIds: string[]; count: number },
      { signal }: RequestOptions = {},
    ): Promise<GenerationJobStatus> {
      return json(
        ops.generateQuestionBankItems,
        { params: { id }, body: input, signal },
        parseGenerationJob,
        'expected the generation job',
      );
    },

    getGenerationJob(
      id: string,
      jobId: string,
      { signal }: RequestOptions = {},
    ): Promise<GenerationJobStatus> {
      return json(
        ops.getGenerationJob,
        { params: { id, jobId }, signal },
        parseGenerationJob,
        'expected the generation job',
      );
    },

    /** POST /question-banks/:id/evaluate with the fully merged settings: a queued run. */
    evaluateQuestionBank(
      id: string,
      settings: SearchSettings,
      { signal }: RequestOptions = {},
    ): Promise<EvalRunSummary> {
      return json(
        ops.evaluateQuestionBank,
        { params: { id }, body: { settings }, signal },
        asRecordWithId<EvalRunSummary>,
        'expected the evaluation run',
      );
    },

    listQuestionTemplates(
      query: PageQuery = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<QuestionTemplate>> {
      return json(
        ops.listQuestionTemplates,
        { query: pageQuery(query), signal },
        (body) => parsePage(body, asRecordWithId<QuestionTemplate>),
        'expected a page of templates',
      );
    },

    createQuestionTemplate(
      input: QuestionTemplateInput,
      { signal }: RequestOptions = {},
    ): Promise<QuestionTemplate> {
      return json(
        ops.createQuestionTemplate,
        { body: input, signal },
        asRecordWithId<QuestionTemplate>,
        'expected the new template',
      );
    },

    updateQuestionTemplate(
      id: string,
      input: Partial<QuestionTemplateInput>,
      { signal }: RequestOptions = {},
    ): Promise<QuestionTemplate> {
      return json(
        ops.updateQuestionTemplate,
        { params: { id }, body: input, signal },
        asRecordWithId<QuestionTemplate>,
        'expected the template',
      );
    },

    deleteQuestionTemplate(id: string, { signal }: RequestOptions = {}): Promise<void> {
      return noContent(ops.deleteQuestionTemplate, { params: { id }, signal });
    },

    // --- evaluation runs ---

    listEvalRuns(
      query: PageQuery & { bankId?: string } = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<EvalRunSummary>> {
      return json(
        ops.listEvalRuns,
        { query: pageQuery(query), signal },
        (body) => parsePage(body, asRecordWithId<EvalRunSummary>),
        'expected a page of runs',
      );
    },

    getEvalRun(id: string, { signal }: RequestOptions = {}): Promise<EvalRun> {
      return json(ops.getEvalRun, { params: { id }, signal }, parseEvalRun, 'expected an evaluation run');
    },

    startAblation(id: string, settings: SearchSettings, { signal }: RequestOptions = {}): Promise<Ablation> {
      return json(
        ops.startAblation,
        { params: { id }, body: { settings }, signal },
        parseAblation,
        'expected the ablation',
      );
    },

    listBankAblations(
      id: string,
      query: PageQuery = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<AblationSummary>> {
      return json(
        ops.listBankAblations,
        { params: { id }, query: pageQuery(query), signal },
        (body) => parsePage(body, asRecordWithId<AblationSummary>),
        'expected a page of ablations',
      );
    },

    getAblation(id: string, { signal }: RequestOptions = {}): Promise<Ablation> {
      return json(ops.getAblation, { params: { id }, signal }, parseAblation, 'expected an ablation');
    },

    compareEvalRuns(a: string, b: string, { signal }: RequestOptions = {}): Promise<EvalRunComparison> {
      return json(
        ops.compareEvalRuns,
        { query: { a, b }, signal },
        (body) =>
          isRecord(body) && Array.isArray(body.comparisons) ? (body as unknown as EvalRunComparison) : null,
        'expected a comparison',
      );
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Server DTOs from libs/shared are trusted in shape once they are objects with an id. */
function asRecordWithId<T>(value: unknown): T | null {
  return isRecord(value) && typeof value.id === 'string' ? (value as T) : null;
}

function parseGenerationJob(value: unknown): GenerationJobStatus | null {
  if (!isRecord(value)) return null;
  const jobId =
    typeof value.jobId === 'string' ? value.jobId : typeof value.id === 'string' ? value.id : null;
  if (!jobId) return null;
  return {
    jobId,
    state: typeof value.state === 'string' ? value.state : 'waiting',
    progress: typeof value.progress === 'number' ? value.progress : 0,
    result: isRecord(value.result) ? (value.result as unknown as GenerationJobStatus['result']) : null,
    failedReason: typeof value.failedReason === 'string' ? value.failedReason : null,
  };
}
