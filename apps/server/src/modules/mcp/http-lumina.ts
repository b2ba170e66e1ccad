import { chatStreamEventSchemas } from '@lumina/shared';
import type {
  ChunkView,
  ChatStreamEvent,
  DocumentView,
  ListDocumentsQuery,
  Page,
  PassageView,
  SearchResponse,
} from '@lumina/shared';
import { ChatAnswerCollector } from '../chat/chat-answer';
import { askAnswerOf } from './answer-collector';
import { LuminaApiError, readPassagePages } from './lumina-api.port';
import type { AskAnswer, AskCall, DocumentText, LuminaApi, SearchCall } from './lumina-api.port';

const ANSWER_EVENTS: ReadonlySet<string> = new Set(['token', 'citations', 'done', 'error']);

/**
 * The MCP tools' port over Lumina's REST API (what the stdio command runs): plain fetch with the key in
 * `x-api-key`; POST /chat's Server-Sent Events are read to the end. An error answer becomes a
 * LuminaApiError with the API's status, code and sentence.
 */
export class HttpLumina implements LuminaApi {
  private readonly base: string;

  /** `key` may be absent for an API in local mode reached from the same machine. */
  constructor(
    baseUrl: string,
    private readonly key: string | undefined,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  search(call: SearchCall, signal: AbortSignal): Promise<SearchResponse> {
    return this.json('POST', '/rag/search', signal, call);
  }

  async ask(call: AskCall, signal: AbortSignal): Promise<AskAnswer> {
    const response = await this.send(
      'POST',
      '/chat',
      signal,
      {
        message: call.question,
        settings: call.settings,
        collectionIds: call.collectionIds,
        conversationId: call.conversationId,
      },
      'text/event-stream',
    );
    const collector = new ChatAnswerCollector(signal);
    for await (const { event, data } of serverSentEvents(response)) {
      // The retrieval event is long and not part of the answer: neither read nor checked.
      if (!ANSWER_EVENTS.has(event)) continue;
      const parsed = chatStreamEventSchemas[event as ChatStreamEvent['event']].safeParse(jsonOrNull(data));
      if (!parsed.success) {
        throw new LuminaApiError(
          `The chat stream sent a malformed ${event} event.`,
          null,
          'invalid_response',
        );
      }
      collector.send(event as ChatStreamEvent['event'], parsed.data);
    }
    return askAnswerOf(collector);
  }

  getPassage(chunkId: string, neighbours: number, signal: AbortSignal): Promise<PassageView> {
    return this.json('GET', `/chunks/${encodeURIComponent(chunkId)}?neighbours=${neighbours}`, signal);
  }

  listDocuments(query: ListDocumentsQuery, signal: AbortSignal): Promise<Page<DocumentView>> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) params.set(name, String(value));
    }
    const search = params.size ? `?${params}` : '';
    return this.json('GET', `/documents${search}`, signal);
  }

  async readDocument(documentId: string, maxPassages: number, signal: AbortSignal): Promise<DocumentText> {
    const path = `/documents/${encodeURIComponent(documentId)}`;
    const document = await this.json<DocumentView>('GET', path, signal);
    return readPassagePages(document, maxPassages, (page, limit) =>
      this.json<Page<ChunkView>>('GET', `${path}/chunks?page=${page}&limit=${limit}`, signal),
    );
  }

  private async json<T>(method: string, path: string, signal: AbortSignal, body?: unknown): Promise<T> {
    const response = await this.send(method, path, signal, body, 'application/json');
    return (await response.json()) as T;
  }

  private async send(
    method: string,
    path: string,
    signal: AbortSignal,
    body: unknown,
    accept: string,
  ): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.base}${path}`, {
        method,
        signal,
        headers: {
          accept,
          ...(this.key ? { 'x-api-key': this.key } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new LuminaApiError(
        `Lumina's API at ${this.base} could not be reached: ${causeOf(error)}`,
        null,
        'unreachable',
      );
    }
    if (!response.ok) throw await refusal(response);
    return response;
  }
}

/** An error answer as a LuminaApiError: `{ statusCode, code, message }`, else the status alone. */
async function refusal(response: Response): Promise<LuminaApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    const message = Array.isArray(body.message) ? body.message.join('; ') : body.message;
    if (typeof message === 'string' && message) {
      return new LuminaApiError(
        message,
        response.status,
        typeof body.code === 'string' ? body.code : 'error',
      );
    }
  } catch {
    // not the API's JSON error body (e.g. a proxy's page)
  }
  return new LuminaApiError(
    `The API answered ${response.status} ${response.statusText}`.trim(),
    response.status,
    'error',
  );
}

function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function causeOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

/** The events of a Server-Sent Events response, as they arrive: `event:` name and the joined `data:` lines. */
async function* serverSentEvents(response: Response): AsyncGenerator<{ event: string; data: string }> {
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
    const blocks = buffer.split(/\r?\n\r?\n/);
    buffer = done ? '' : blocks.pop()!;
    for (const block of blocks) {
      const event = eventOf(block);
      if (event) yield event;
    }
    if (done) return;
  }
}

function eventOf(block: string): { event: string; data: string } | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length ? { event, data: data.join('\n') } : null;
}
