import { trimCharsEnd } from '@lumina/rag';
import type { Reranker } from '@lumina/rag';
import { LlmRequestError, isRetryableStatus, retryAfterMs } from './llm-request-error';
import { DEFAULT_BACKOFF, abortReason, retryWithBackoff } from './retry-with-backoff';
import type { BackoffPolicy } from './retry-with-backoff';

export interface HttpRerankerOptions {
  /** e.g. http://127.0.0.1:8080/v1 — the request goes to `${baseURL}/rerank`. */
  baseURL: string;
  apiKey?: string;
  model?: string;
  timeoutMs: number;
  maxRetries: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Each document is cut to this many characters. */
  maxDocumentChars?: number;
}

/**
 * A /v1/rerank endpoint in the Cohere/Jina shape (also served by vLLM, TEI's compatible route,
 * LocalAI): POST {model, query, documents, top_n} → {results: [{index, relevance_score}]}. Also reads
 * `data` instead of `results` and `score` instead of `relevance_score`. Documents the endpoint leaves
 * out score below every returned one, in their given order. Timeouts and retries as for the chat model.
 */
export class HttpReranker implements Reranker {
  readonly modelId: string;
  private readonly url: string;
  private readonly policy: BackoffPolicy;

  constructor(private readonly options: HttpRerankerOptions) {
    this.modelId = `rerank:${options.model ?? 'default'}`;
    this.url = `${trimCharsEnd(options.baseURL, '/')}/rerank`;
    this.policy = {
      maxRetries: options.maxRetries,
      baseDelayMs: options.baseDelayMs ?? DEFAULT_BACKOFF.baseDelayMs,
      maxDelayMs: options.maxDelayMs ?? DEFAULT_BACKOFF.maxDelayMs,
    };
  }

  async rerank(query: string, passages: string[], signal: AbortSignal): Promise<number[]> {
    if (passages.length === 0) return [];
    const maxChars = this.options.maxDocumentChars ?? 4000;
    const body = JSON.stringify({
      ...(this.options.model ? { model: this.options.model } : {}),
      query,
      documents: passages.map((passage) => passage.slice(0, maxChars)),
      top_n: passages.length,
    });
    return retryWithBackoff(() => this.attempt(body, passages.length, signal), this.policy, signal);
  }

  private async attempt(body: string, count: number, parent: AbortSignal): Promise<number[]> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(parent.reason);
    parent.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('timeout'));
    }, this.options.timeoutMs);
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body,
        signal: controller.signal,
      });
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        throw new LlmRequestError(
          `the rerank endpoint answered ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`,
          {
            status: response.status,
            retryable: isRetryableStatus(response.status),
            retryAfterMs: retryAfterMs(response.headers),
          },
        );
      }
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new LlmRequestError(`the rerank endpoint sent an unreadable answer: ${text.slice(0, 120)}`);
      }
      return rerankScores(json, count);
    } catch (error) {
      if (error instanceof LlmRequestError) throw error;
      if (timedOut) {
        throw new LlmRequestError(`the rerank endpoint did not answer within ${this.options.timeoutMs} ms`, {
          timeout: true,
        });
      }
      if (parent.aborted) throw abortReason(parent);
      throw new LlmRequestError(
        `could not reach the rerank endpoint: ${error instanceof Error ? error.message : String(error)}`,
        { retryable: true, cause: error },
      );
    } finally {
      clearTimeout(timer);
      parent.removeEventListener('abort', onAbort);
    }
  }
}

/** One finite score per document, in the order given, from a rerank response. */
export function rerankScores(json: unknown, count: number): number[] {
  const record = (json ?? {}) as Record<string, unknown>;
  const items = Array.isArray(json) ? json : (record.results ?? record.data);
  if (!Array.isArray(items)) throw new LlmRequestError('the rerank endpoint answered without results');
  const scores = new Array<number | undefined>(count).fill(undefined);
  for (const item of items as Record<string, unknown>[]) {
    const index = item?.index;
    const score = item?.relevance_score ?? item?.score;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count) continue;
    if (typeof score !== 'number' || !Number.isFinite(score) || scores[index] !== undefined) continue;
    scores[index] = score;
  }
  const given = scores.filter((score): score is number => score !== undefined);
  if (given.length === 0) throw new LlmRequestError('the rerank endpoint scored none of the documents');
  const floor = Math.min(...given) - 1;
  let missing = 0;
  return scores.map((score) => score ?? floor - 1e-6 * missing++);
}
