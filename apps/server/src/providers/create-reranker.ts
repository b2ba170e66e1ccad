import { LlmListwiseReranker } from '@lumina/rag';
import type { ChatModel, Reranker } from '@lumina/rag';
import type { Env } from '../config/env.schema';
import { HttpReranker } from './http-reranker';

/**
 * The reranker the environment configures: a /v1/rerank endpoint when RERANK_BASE_URL is set, else
 * listwise reranking by the chat model when there is one, else none (null).
 */
export function createReranker(env: Env, chat: ChatModel | null): Reranker | null {
  if (env.RERANK_BASE_URL) {
    return new HttpReranker({
      baseURL: env.RERANK_BASE_URL,
      apiKey: env.RERANK_API_KEY,
      model: env.RERANK_MODEL,
      timeoutMs: env.LLM_TIMEOUT_MS,
      maxRetries: env.LLM_MAX_RETRIES,
    });
  }
  return chat ? new LlmListwiseReranker(chat) : null;
}
