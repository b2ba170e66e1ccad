import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultReply } from './replies';
import type { TokenUsage } from './replies';

export interface RecordedRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
  at: number;
}

/** What the scripted server answers to one request; `null` lets the next script apply. */
export interface ScriptedReply {
  status?: number;
  /** JSON body (non-streaming). */
  json?: unknown;
  /** Raw text body (e.g. garbage). */
  raw?: string;
  /** For chat completions with stream: true — the text pieces sent as SSE chunks. */
  stream?: string[];
  /** Milliseconds to wait before answering (or between stream chunks with `streamDelayMs`). */
  delayMs?: number;
  streamDelayMs?: number;
  /** Stop sending mid-stream and keep the connection open (a stalled upstream). */
  stallAfter?: number;
  /** The usage the last stream chunk carries; default a count of the pieces, `null` for none. */
  usage?: TokenUsage | null;
}

export type ScriptHandler = (request: RecordedRequest) => ScriptedReply | null | undefined;

export interface ScriptedServerOptions {
  /**
   * The server's own script: tried after the handlers `on` adds (which `reset()` forgets) and before the
   * default replies (a fixed chat answer, word-hash embeddings, a rerank by position, 404 elsewhere).
   */
  script?: ScriptHandler;
  /** Milliseconds every reply waits unless it names its own `delayMs`: a model's latency. */
  latencyMs?: number;
}

/**
 * An OpenAI-compatible HTTP server on 127.0.0.1 for tests, browser tests and benchmarks: real HTTP, the
 * real `openai` client on the other side. It records every request, answers /v1/chat/completions (plain
 * or streamed), /v1/embeddings and /v1/rerank from its scripts, counts how many requests overlap, and
 * reports which connections the client aborted. A process that does not hold the object reads the record
 * over HTTP: `GET /__requests` lists it, `POST /__reset` forgets it.
 */
export class ScriptedOpenAiServer {
  readonly requests: RecordedRequest[] = [];
  readonly aborted: RecordedRequest[] = [];
  /** The most requests that were waiting for their answer at once. */
  maxInFlight = 0;
  /** The OpenAI-compatible endpoint (`…/v1`), for LLM_BASE_URL. */
  readonly baseUrl: string;
  private handlers: ScriptHandler[] = [];
  private inFlight = 0;

  private constructor(
    private readonly server: Server,
    /** `http://127.0.0.1:<port>`: where `/__requests` and `/__reset` answer. */
    readonly origin: string,
    private readonly options: ScriptedServerOptions,
  ) {
    this.baseUrl = `${origin}/v1`;
  }

  static async start(options: ScriptedServerOptions = {}): Promise<ScriptedOpenAiServer> {
    const ref: { current?: ScriptedOpenAiServer } = {};
    const server = createServer((req, res) => {
      void ref.current!.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    ref.current = new ScriptedOpenAiServer(server, `http://127.0.0.1:${port}`, options);
    return ref.current;
  }

  /** Requests received so far (every path). */
  get calls(): number {
    return this.requests.length;
  }

  /** Handlers are tried newest first; the first non-null reply wins. */
  on(handler: ScriptHandler): this {
    this.handlers.unshift(handler);
    return this;
  }

  /** Forgets the handlers `on` added and every recorded request. */
  reset(): void {
    this.handlers = [];
    this.forget();
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private forget(): void {
    this.requests.length = 0;
    this.aborted.length = 0;
    this.maxInFlight = 0;
  }

  private reply(request: RecordedRequest): ScriptedReply {
    for (const handler of this.handlers) {
      const reply = handler(request);
      if (reply) return reply;
    }
    return this.options.script?.(request) ?? defaultReply(request);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/__requests' || path === '/__reset') return this.control(path, res);
    let body: Record<string, unknown> = {};
    try {
      body = chunks.length
        ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>)
        : {};
    } catch {
      body = { unparsable: Buffer.concat(chunks).toString('utf8') };
    }
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path, body, at: Date.now() };
    this.requests.push(recorded);
    let finished = false;
    // Waiting for its answer until the delay ends or the client closes the connection, whichever comes
    // first: a request the client gave up on no longer counts as in flight.
    let waiting = true;
    const answeredOrGone = () => {
      if (waiting) this.inFlight -= 1;
      waiting = false;
    };
    res.on('close', () => {
      if (!finished) this.aborted.push(recorded);
      answeredOrGone();
    });
    const reply = this.reply(recorded);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const delay = reply.delayMs ?? this.options.latencyMs;
    if (delay) await sleepUnlessClosed(delay, res);
    answeredOrGone();
    if (res.destroyed) return;
    if (reply.stream && body.stream) {
      res.writeHead(reply.status ?? 200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
      });
      const model = String(body.model ?? 'scripted');
      for (let i = 0; i < reply.stream.length; i++) {
        if (reply.stallAfter !== undefined && i >= reply.stallAfter) return; // keep the connection open
        if (reply.streamDelayMs) await sleep(reply.streamDelayMs);
        if (res.destroyed) return;
        res.write(`data: ${JSON.stringify(chunk(model, { content: reply.stream[i] }, null))}\n\n`);
      }
      const usage =
        reply.usage === undefined
          ? {
              prompt_tokens: 11,
              completion_tokens: reply.stream.length,
              total_tokens: 11 + reply.stream.length,
            }
          : reply.usage;
      res.write(`data: ${JSON.stringify({ ...chunk(model, {}, 'stop'), ...(usage ? { usage } : {}) })}\n\n`);
      res.end('data: [DONE]\n\n');
      finished = true;
      return;
    }
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
    res.end(reply.raw ?? JSON.stringify(reply.json ?? {}));
    finished = true;
  }

  private control(path: string, res: ServerResponse): void {
    if (path === '/__reset') {
      this.forget();
      res.writeHead(204).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(this.requests));
  }
}

function chunk(model: string, delta: Record<string, unknown>, finish: string | null) {
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

/** Waits `ms`, or less when the client closes the connection first (no timer outlives the request). */
function sleepUnlessClosed(ms: number, res: ServerResponse): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.on('close', done);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
