import type {
  ChatCompletion,
  ChatModel,
  CompletionEvent,
  CompletionRequest,
  TokenUsage,
} from '../ports/chat-model.port';

export type FakeReply = string | Error | ((request: CompletionRequest) => string | Error);

/** How a fake streams: these pieces in order, then the error (if any), else the usage (if any). */
export interface FakeStream {
  pieces: string[];
  failWith?: Error;
  usage?: TokenUsage;
}

/**
 * A ChatModel for unit tests: answers from a script after `latencyMs`, records every request, and
 * honours the request's AbortSignal the way a real endpoint adapter does (rejects with its reason).
 * `stream` yields the whole reply as one token, or, given a FakeStream, its pieces one by one (checking
 * the signal before each).
 */
export class FakeChatModel implements ChatModel {
  readonly requests: CompletionRequest[] = [];
  readonly aborted: CompletionRequest[] = [];

  constructor(
    private readonly reply: FakeReply,
    private readonly latencyMs = 0,
    readonly modelId = 'fake-llm',
    private readonly streamed?: FakeStream,
  ) {}

  async complete(request: CompletionRequest): Promise<ChatCompletion> {
    this.requests.push(request);
    await delay(this.latencyMs, request.signal, () => this.aborted.push(request));
    const reply = typeof this.reply === 'function' ? this.reply(request) : this.reply;
    if (reply instanceof Error) throw reply;
    return { text: reply, model: this.modelId, usage: null };
  }

  async *stream(request: CompletionRequest): AsyncIterable<CompletionEvent> {
    if (!this.streamed) {
      const { text } = await this.complete(request);
      yield { type: 'token', text };
      return;
    }
    this.requests.push(request);
    for (const text of this.streamed.pieces) {
      request.signal?.throwIfAborted();
      yield { type: 'token', text };
    }
    if (this.streamed.failWith) throw this.streamed.failWith;
    if (this.streamed.usage) yield { type: 'usage', usage: this.streamed.usage };
  }
}

/** Wait `ms`, or reject with the signal's reason as soon as it aborts. */
export function delay(ms: number, signal?: AbortSignal, onAbort?: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      onAbort?.();
      reject(signal.reason as Error);
      return;
    }
    const abort = () => {
      clearTimeout(timer);
      onAbort?.();
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}
