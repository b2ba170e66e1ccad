import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
  at: number;
}

/** What the scripted server answers to one request; `null` lets the default answer apply. */
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
}

export type ScriptHandler = (request: RecordedRequest) => ScriptedReply | null | undefined;

/**
 * An OpenAI-compatible HTTP server on 127.0.0.1 for tests: real HTTP, real `openai` client on the other
 * side. It records every request, answers /v1/chat/completions (plain or streamed), /v1/embeddings and
 * /v1/rerank from a script, and reports which connections the client aborted.
 */
export class ScriptedOpenAiServer {
  readonly requests: RecordedRequest[] = [];
  readonly aborted: RecordedRequest[] = [];
  private handlers: ScriptHandler[] = [];
  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<ScriptedOpenAiServer> {
    const ref: { current?: ScriptedOpenAiServer } = {};
    const server = createServer((req, res) => {
      void ref.current!.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    ref.current = new ScriptedOpenAiServer(server, `http://127.0.0.1:${port}/v1`);
    return ref.current;
  }

  /** Handlers are tried newest first; the first non-null reply wins. */
  on(handler: ScriptHandler): this {
    this.handlers.unshift(handler);
    return this;
  }

  reset(): void {
    this.handlers = [];
    this.requests.length = 0;
    this.aborted.length = 0;
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = chunks.length
        ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>)
        : {};
    } catch {
      body = { unparsable: Buffer.concat(chunks).toString('utf8') };
    }
    const path = (req.url ?? '/').split('?')[0];
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path, body, at: Date.now() };
    this.requests.push(recorded);
    let finished = false;
    res.on('close', () => {
      if (!finished) this.aborted.push(recorded);
    });
    const reply = this.handlers.map((handler) => handler(recorded)).find((r) => r) ?? defaultReply(recorded);
    if (reply.delayMs) await sleep(reply.delayMs);
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
      res.write(
        `data: ${JSON.stringify({ ...chunk(model, {}, 'stop'), usage: { prompt_tokens: 11, completion_tokens: reply.stream.length, total_tokens: 11 + reply.stream.length } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
      finished = true;
      return;
    }
    if (reply.raw !== undefined) {
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(reply.raw);
    } else {
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.json ?? {}));
    }
    finished = true;
  }
}

/** A chat completion JSON body with `text` as the assistant message. */
export function completion(text: string, model = 'scripted'): ScriptedReply {
  return {
    json: {
      id: 'chatcmpl-scripted',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
    },
  };
}

function defaultReply(request: RecordedRequest): ScriptedReply {
  if (request.path.endsWith('/chat/completions')) {
    return request.body.stream ? { stream: ['scripted ', 'answer'] } : completion('scripted answer');
  }
  if (request.path.endsWith('/embeddings')) {
    const input = request.body.input;
    const texts = Array.isArray(input) ? input : [input];
    const dimensions = Number(request.body.dimensions ?? 8);
    return {
      json: {
        object: 'list',
        model: request.body.model,
        data: texts.map((text, index) => ({
          object: 'embedding',
          index,
          embedding: fakeVector(String(text), dimensions),
        })),
        usage: { prompt_tokens: 1, total_tokens: 1 },
      },
    };
  }
  if (request.path.endsWith('/rerank')) {
    const documents = (request.body.documents as unknown[]) ?? [];
    return {
      json: { results: documents.map((_, index) => ({ index, relevance_score: 1 / (index + 1) })) },
    };
  }
  return { status: 404, json: { error: { message: `no script for ${request.path}` } } };
}

/** A deterministic vector from the text's characters (same text, same vector). */
export function fakeVector(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (let i = 0; i < text.length; i++) vector[(text.charCodeAt(i) * 31 + i) % dimensions] += 1;
  return vector;
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
