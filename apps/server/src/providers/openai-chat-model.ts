import type { ChatCompletion, ChatModel, CompletionRequest, CompletionEvent, TokenUsage } from '@lumina/rag';
import OpenAI from 'openai';
import { LlmRequestError, isRetryableStatus, retryAfterMs } from './llm-request-error';
import { DEFAULT_BACKOFF, abortReason, retryWithBackoff } from './retry-with-backoff';
import type { BackoffPolicy } from './retry-with-backoff';

export interface OpenAiChatModelOptions {
  baseURL: string;
  apiKey?: string;
  model: string;
  /** Per attempt: the whole answer (complete), or the first byte and every gap between chunks (stream). */
  timeoutMs: number;
  maxRetries: number;
  /** Backoff before retry n is baseDelayMs · 2^n (jittered), at most maxDelayMs; Retry-After wins. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Told about each retry (for the logs). */
  onRetry?: (event: { error: string; status?: number; delayMs: number; retry: number }) => void;
}

type ChatBody = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

/**
 * The ChatModel port over any OpenAI-compatible /v1/chat/completions endpoint (OpenAI, Ollama, vLLM,
 * LM Studio) through the `openai` client. Every attempt has a timeout; 408/409/429/5xx and connection
 * failures are retried with exponential backoff (Retry-After honoured), but a stream only until its
 * first chunk. The caller's AbortSignal aborts the HTTP request, also mid-stream, and so does leaving
 * a stream early (break) or a stream falling silent for longer than the timeout.
 */
export class OpenAiChatModel implements ChatModel {
  readonly modelId: string;
  private readonly client: OpenAI;
  private readonly policy: BackoffPolicy;

  constructor(private readonly options: OpenAiChatModelOptions) {
    this.modelId = options.model;
    this.client = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey || 'not-needed',
      timeout: options.timeoutMs,
      // Retries are ours: abortable waits, and no retry after an attempt ran out of time.
      maxRetries: 0,
    });
    this.policy = {
      maxRetries: options.maxRetries,
      baseDelayMs: options.baseDelayMs ?? DEFAULT_BACKOFF.baseDelayMs,
      maxDelayMs: options.maxDelayMs ?? DEFAULT_BACKOFF.maxDelayMs,
    };
  }

  async complete(request: CompletionRequest): Promise<ChatCompletion> {
    return retryWithBackoff(
      async () => {
        const attempt = new Attempt(request.signal, this.options.timeoutMs);
        try {
          const response = await this.client.chat.completions.create(this.body(request), {
            signal: attempt.signal,
            timeout: this.options.timeoutMs,
            maxRetries: 0,
          });
          const choice = Array.isArray(response?.choices) ? response.choices[0] : undefined;
          if (!choice) throw new LlmRequestError('the chat endpoint answered without any choices');
          return {
            text: choice.message?.content ?? '',
            model: response.model || this.options.model,
            usage: toUsage(response.usage),
          };
        } catch (error) {
          throw attempt.translate(error);
        } finally {
          attempt.end();
        }
      },
      this.policy,
      request.signal,
      this.reportRetry,
    );
  }

  async *stream(request: CompletionRequest): AsyncGenerator<CompletionEvent> {
    // Only opening the stream is retried: once tokens flowed, a retry would repeat them.
    const { stream, attempt } = await retryWithBackoff(
      async () => {
        const attempt = new Attempt(request.signal, this.options.timeoutMs);
        try {
          const stream = await this.client.chat.completions.create(
            { ...this.body(request), stream: true, stream_options: { include_usage: true } },
            { signal: attempt.signal, timeout: this.options.timeoutMs, maxRetries: 0 },
          );
          return { stream, attempt };
        } catch (error) {
          attempt.end();
          throw attempt.translate(error);
        }
      },
      this.policy,
      request.signal,
      this.reportRetry,
    );

    let finished = false;
    try {
      let usage: TokenUsage | null = null;
      let answered = false;
      attempt.restartTimer();
      for await (const chunk of stream) {
        // The timer measures the endpoint's silence, not the time the consumer takes between chunks.
        attempt.stopTimer();
        const text = chunk.choices?.[0]?.delta?.content;
        if (text) {
          answered = true;
          yield { type: 'token', text };
        }
        usage = toUsage(chunk.usage) ?? usage;
        attempt.restartTimer();
      }
      // The openai client ends an aborted stream quietly; an abort is an error here.
      if (attempt.signal.aborted) throw attempt.translate(attempt.signal.reason);
      // A body that is not a stream of chunks (an HTML error page with status 200, chunks of another
      // shape, no choices) parses as an empty stream: that is a failure, not an empty answer.
      if (!answered) throw new LlmRequestError('the chat endpoint sent no answer (its stream held no text)');
      if (usage) yield { type: 'usage', usage };
      finished = true;
    } catch (error) {
      throw attempt.translate(error);
    } finally {
      // Left early (break, an error, the caller's abort): close the upstream request too.
      if (!finished) attempt.abort(new Error('the stream was closed before it ended'));
      attempt.end();
    }
  }

  private body(request: CompletionRequest): ChatBody {
    return {
      model: this.options.model,
      messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
      ...(request.json ? { response_format: { type: 'json_object' as const } } : {}),
    };
  }

  private readonly reportRetry = (error: LlmRequestError, delayMs: number, retry: number): void => {
    this.options.onRetry?.({
      error: error.message,
      status: error.status,
      delayMs: Math.round(delayMs),
      retry,
    });
  };
}

/**
 * One HTTP attempt: its own AbortController, linked to the caller's signal, with a timer that aborts
 * it with a timeout error. Translates whatever the client threw into an LlmRequestError (or the
 * caller's abort reason).
 */
class Attempt {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timedOut = false;
  private readonly onParentAbort = () => this.controller.abort(this.parent?.reason);

  constructor(
    private readonly parent: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    if (parent?.aborted) this.controller.abort(parent.reason);
    else parent?.addEventListener('abort', this.onParentAbort, { once: true });
    this.restartTimer();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  restartTimer(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new Error('timeout'));
    }, this.timeoutMs);
  }

  stopTimer(): void {
    clearTimeout(this.timer);
  }

  abort(reason: Error): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  end(): void {
    clearTimeout(this.timer);
    this.parent?.removeEventListener('abort', this.onParentAbort);
  }

  translate(error: unknown): Error {
    if (error instanceof LlmRequestError) return error;
    if (this.timedOut) {
      return new LlmRequestError(`the chat model did not answer within ${this.timeoutMs} ms`, {
        timeout: true,
        cause: error,
      });
    }
    if (this.parent?.aborted) return abortReason(this.parent);
    if (error instanceof OpenAI.APIConnectionError) {
      return new LlmRequestError(`could not reach the chat endpoint: ${describeCause(error)}`, {
        retryable: true,
        cause: error,
      });
    }
    if (error instanceof OpenAI.APIError && error.status !== undefined) {
      // The client's message starts with the status, and says "status code (no body)" for an empty body.
      const detail = error.message
        .replace(new RegExp(`^${error.status}\\s*`), '')
        .replace(/^status code \(no body\)$/, '');
      return new LlmRequestError(`the chat endpoint answered ${error.status}${detail ? `: ${detail}` : ''}`, {
        status: error.status,
        retryable: isRetryableStatus(error.status),
        retryAfterMs: retryAfterMs(error.headers),
        cause: error,
      });
    }
    if (error instanceof OpenAI.APIError) {
      return new LlmRequestError(`the chat endpoint reported an error: ${error.message}`, { cause: error });
    }
    const message = error instanceof Error ? error.message : String(error);
    return new LlmRequestError(`the chat endpoint sent an unreadable answer: ${message}`, { cause: error });
  }
}

function toUsage(usage: OpenAI.CompletionUsage | null | undefined): TokenUsage | null {
  if (!usage || typeof usage.prompt_tokens !== 'number') return null;
  return { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens ?? 0 };
}

function describeCause(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  const inner = cause instanceof Error ? ((cause as { cause?: unknown }).cause ?? cause) : undefined;
  return inner instanceof Error ? `${error.message} (${inner.message})` : error.message;
}
