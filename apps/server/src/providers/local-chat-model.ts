import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CompletionError } from '@lumina/rag';
import type { ChatCompletion, ChatModel, CompletionEvent, CompletionRequest, TokenUsage } from '@lumina/rag';
import type { LocalModelSpec } from './local-models/catalogue';
import { modelDir } from './local-models/model-files';

/**
 * The thread's code (plain JavaScript; node-llama-cpp is ESM only, so it is imported, never required).
 * One model and one context with `sequences` parallel sequences: the search's multi-query and HyDE
 * requests run side by side in one copy of the weights instead of one after the other. A request waits
 * for a free sequence; each sequence's history is cleared after its request.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let state;
const running = new Map();
async function load() {
  const started = Date.now();
  const llamaCpp = await import(workerData.llamaCpp);
  const llama = await llamaCpp.getLlama({ gpu: false, build: 'never', logLevel: llamaCpp.LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath: workerData.modelPath });
  const context = await model.createContext({
    contextSize: workerData.contextSize * workerData.sequences,
    sequences: workerData.sequences,
    threads: workerData.threads,
  });
  const sequences = [];
  for (let i = 0; i < workerData.sequences; i++) sequences.push(context.getSequence());
  parentPort.postMessage({ type: 'loaded', ms: Date.now() - started, contextSize: context.contextSize });
  return { llamaCpp, model, sequences, waiting: [], grammars: new Map() };
}
function linesGrammar(s, count) {
  // Exactly \`count\` non-empty lines, then the answer ends: a small model otherwise repeats its last
  // line up to the token limit. Built once per count.
  let grammar = s.grammars.get(count);
  if (!grammar) {
    const rule = Array.from({ length: count }, () => 'line').join(' ');
    grammar = s.model.llama.createGrammar({ grammar: 'root ::= ' + rule + '\\nline ::= [^\\\\n]{4,200} "\\\\n"' });
    s.grammars.set(count, grammar);
  }
  return grammar;
}
function acquire(s) {
  const sequence = s.sequences.pop();
  if (sequence) return Promise.resolve(sequence);
  return new Promise((resolve) => s.waiting.push(resolve));
}
function release(s, sequence) {
  const next = s.waiting.shift();
  if (next) next(sequence);
  else s.sequences.push(sequence);
}
function history(messages) {
  // Everything before the last user message is the session's history; that message is the prompt.
  const items = [];
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\\n\\n');
  if (system) items.push({ type: 'system', text: system });
  const turns = messages.filter((m) => m.role !== 'system');
  const last = turns.length > 0 && turns[turns.length - 1].role === 'user' ? turns.pop().content : '';
  for (const m of turns) {
    if (m.role === 'user') items.push({ type: 'user', text: m.content });
    else items.push({ type: 'model', response: [m.content] });
  }
  return { items, prompt: last };
}
function repeatWatch() {
  const stop = new AbortController();
  const lines = new Set();
  let pending = '';
  return {
    signal: stop.signal,
    add(chunk) {
      pending += chunk;
      let end;
      while ((end = pending.indexOf('\\n')) >= 0) {
        const line = pending.slice(0, end).trim().toLowerCase();
        pending = pending.slice(end + 1);
        if (line && lines.has(line)) stop.abort();
        lines.add(line);
      }
    },
  };
}
async function run(s, request) {
  const controller = new AbortController();
  running.set(request.id, controller);
  const sequence = await acquire(s);
  let session;
  try {
    if (controller.signal.aborted) throw new Error('aborted');
    const before = sequence.tokenMeter.getState();
    session = new s.llamaCpp.LlamaChatSession({ contextSequence: sequence, autoDisposeSequence: false });
    const { items, prompt } = history(request.messages);
    session.setChatHistory(items);
    const grammar = request.lines ? await linesGrammar(s, request.lines) : undefined;
    // Lines: once a line repeats an earlier one, the rest would repeat too (temperature 0), so the
    // answer stops there with what it has.
    const repeated = request.lines ? repeatWatch() : undefined;
    const text = await session.prompt(prompt, {
      grammar,
      maxTokens: request.maxTokens,
      temperature: request.temperature,
      signal: repeated ? AbortSignal.any([controller.signal, repeated.signal]) : controller.signal,
      stopOnAbortSignal: repeated !== undefined,
      onTextChunk: (chunk) => {
        repeated?.add(chunk);
        if (request.stream) parentPort.postMessage({ type: 'token', id: request.id, text: chunk });
      },
    });
    const after = sequence.tokenMeter.getState();
    parentPort.postMessage({
      type: 'done',
      id: request.id,
      text,
      usage: {
        promptTokens: after.usedInputTokens - before.usedInputTokens,
        completionTokens: after.usedOutputTokens - before.usedOutputTokens,
      },
    });
  } finally {
    running.delete(request.id);
    session?.dispose({ disposeSequence: false });
    await sequence.clearHistory();
    release(s, sequence);
  }
}
const inFlight = new Set();
parentPort.on('message', async (message) => {
  if (message.type === 'abort') {
    running.get(message.id)?.abort();
    return;
  }
  if (message.type === 'close') {
    // Stopping the thread while llama.cpp computes aborts the whole process: stop every generation,
    // wait for them and free the model.
    for (const controller of running.values()) controller.abort();
    await Promise.allSettled([...inFlight]);
    const loaded = await state?.catch(() => undefined);
    await loaded?.model.llama.dispose().catch(() => undefined);
    // Then the thread ends by itself once llama.cpp's own threads have wound down: stopping it from
    // outside while they still run aborted the process now and then (at the end of a bench run).
    parentPort.close();
    return;
  }
  const work = (async () => {
    // A failed load is forgotten so that the next request tries again.
    state ??= load().catch((error) => { state = undefined; throw error; });
    await run(await state, message);
  })().catch((error) => {
    parentPort.postMessage({ type: 'error', id: message.id, message: error instanceof Error ? error.message : String(error) });
  });
  inFlight.add(work);
  await work;
  inFlight.delete(work);
});
`;

/** How long close() waits for the thread to end by itself. */
const CLOSE_TIMEOUT_MS = 30_000;

type Reply =
  | { type: 'loaded'; ms: number; contextSize: number }
  | { type: 'token'; id: number; text: string }
  | { type: 'done'; id: number; text: string; usage: TokenUsage }
  | { type: 'error'; id: number; message: string };

interface Pending {
  event(reply: Extract<Reply, { id: number }>): void;
  fail(error: Error): void;
}

export interface LocalChatModelOptions {
  /** MODELS_DIR: the model's `model.gguf` is in its `<id>/` folder (`lumina-models fetch`). */
  readonly modelsDir: string;
  /** llama.cpp's threads for the one context. */
  readonly threads: number;
  /** Requests answered side by side, each on its own sequence of the one context. */
  readonly sequences: number;
  /** Tokens each sequence holds: the prompt and the answer together. */
  readonly contextSize: number;
  /** Longest answer, in tokens, whatever a request asks: a small model rambles, and every token costs. */
  readonly maxTokens: number;
  /** Per request, from the first moment it waits for a sequence. */
  readonly timeoutMs: number;
}

/** What /health says about the local model. */
export interface LocalChatModelStatus {
  readonly model: string;
  readonly description: string;
  readonly file: string;
  readonly sha256: string;
  /** Null until the first request loads it. */
  readonly loadMs: number | null;
  readonly contextSize: number | null;
  readonly sequences: number;
  readonly threads: number;
}

/**
 * A small instruction-tuned LLM (GGUF) run in process by llama.cpp through node-llama-cpp, on a thread of
 * its own, CPU only, with no download and no build at run time: the prebuilt binary of the npm package
 * and the file in MODELS_DIR. A request's `json` flag is not enforced with a grammar: llama.cpp's generic
 * JSON grammar made one 200-token request of this model run for more than ten minutes, and the callers
 * parse loosely anyway. A request's `lines` is: a grammar of that many short lines (cheap, unlike the
 * JSON one) ends the answer after the last line, and it ends early at a line that repeats an earlier one. It implements the ChatModel port, so the LLM expander and HyDE generator
 * use it exactly as they use an endpoint; their output checks (distinct variants, a non-empty passage)
 * and the search's fallback to the other branches apply unchanged.
 */
export class LocalChatModel implements ChatModel {
  readonly modelId: string;
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private loadMs: number | null = null;
  private contextSize: number | null = null;

  constructor(
    private readonly spec: LocalModelSpec,
    private readonly options: LocalChatModelOptions,
  ) {
    this.modelId = `local/${spec.id}`;
  }

  get modelPath(): string {
    return join(modelDir(this.options.modelsDir, this.spec), 'model.gguf');
  }

  status(): LocalChatModelStatus {
    return {
      model: this.spec.id,
      description: this.spec.description,
      file: this.modelPath,
      sha256: this.spec.wheels[0]?.files.find((file) => file.to === 'model.gguf')?.sha256 ?? '',
      loadMs: this.loadMs,
      contextSize: this.contextSize,
      sequences: this.options.sequences,
      threads: this.options.threads,
    };
  }

  async complete(request: CompletionRequest): Promise<ChatCompletion> {
    let text = '';
    let usage: TokenUsage | null = null;
    for await (const event of this.run(request, false)) {
      if (event.type === 'token') text += event.text;
      else usage = event.usage;
    }
    return { text, model: this.modelId, usage };
  }

  stream(request: CompletionRequest): AsyncIterable<CompletionEvent> {
    return this.run(request, true);
  }

  /**
   * Stops the thread (tests and shutdown): its generations are stopped, the model is freed, and the thread
   * ends by itself. Terminating it in the middle of llama.cpp's work aborts the process. A later request
   * starts it again.
   */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    worker.ref();
    await new Promise<void>((resolve) => {
      // Past this the thread is left to end on its own, never stopped from outside (see above).
      const timer = setTimeout(() => {
        worker.unref();
        resolve();
      }, CLOSE_TIMEOUT_MS);
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      worker.postMessage({ type: 'close' });
    });
  }

  private async *run(request: CompletionRequest, stream: boolean): AsyncGenerator<CompletionEvent> {
    request.signal?.throwIfAborted();
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    const queue: (Extract<Reply, { id: number }> | Error)[] = [];
    let wake: (() => void) | undefined;
    const push = (item: Extract<Reply, { id: number }> | Error): void => {
      queue.push(item);
      wake?.();
    };
    this.pending.set(id, { event: push, fail: push });
    const timeoutMs = this.options.timeoutMs;
    const timer = setTimeout(() => {
      worker.postMessage({ type: 'abort', id });
      push(new CompletionError(`the local model took longer than ${timeoutMs} ms`, { timeout: true }));
    }, timeoutMs);
    const onAbort = (): void => {
      worker.postMessage({ type: 'abort', id });
      push(request.signal?.reason instanceof Error ? request.signal.reason : new Error('aborted'));
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    worker.ref();
    worker.postMessage({
      type: 'run',
      id,
      messages: request.messages,
      temperature: request.temperature ?? 0,
      maxTokens: Math.min(request.maxTokens ?? this.options.maxTokens, this.options.maxTokens),
      lines: request.lines,
      stream,
    });
    try {
      for (;;) {
        const item = queue.shift();
        if (!item) {
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          continue;
        }
        if (item instanceof Error) throw item;
        if (item.type === 'token') yield { type: 'token', text: item.text };
        else if (item.type === 'error') throw new CompletionError(`the local model failed: ${item.message}`);
        else {
          // Without streaming, the whole text comes at the end.
          if (!stream && item.text) yield { type: 'token', text: item.text };
          yield { type: 'usage', usage: item.usage };
          return;
        }
      }
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      this.pending.delete(id);
      if (this.pending.size === 0) worker.unref();
    }
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        llamaCpp: pathToFileURL(require.resolve('node-llama-cpp')).href,
        modelPath: this.modelPath,
        threads: this.options.threads,
        sequences: this.options.sequences,
        contextSize: this.options.contextSize,
      },
    });
    worker.on('message', (reply: Reply) => {
      if (reply.type === 'loaded') {
        this.loadMs = reply.ms;
        this.contextSize = reply.contextSize;
        return;
      }
      this.pending.get(reply.id)?.event(reply);
    });
    const fail = (error: Error): void => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.fail(error);
      this.pending.clear();
    };
    worker.on('error', (error) =>
      fail(new CompletionError(`the local model's thread crashed: ${error.message}`)),
    );
    worker.on('exit', (code) => fail(new CompletionError(`the local model's thread stopped (exit ${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
