import { LlmListwiseReranker } from '@lumina/rag';
import type { AnyReranker, ChatModel } from '@lumina/rag';
import type { Env } from '../config/env.schema';
import { HttpReranker } from './http-reranker';
import { learnedRerankerFor } from './learned-reranker.loader';

/**
 * The reranker the environment configures: a /v1/rerank endpoint when RERANK_BASE_URL is set, else
 * listwise reranking by the chat model when there is one, else the learned reranker of
 * RERANK_MODEL_FILE when a fitted model is given, else none (null).
 */
export function createReranker(env: Env, chat: ChatModel | null): AnyReranker | null {
  if (env.RERANK_BASE_URL) {
    return new HttpReranker({
      baseURL: env.RERANK_BASE_URL,
      apiKey: env.RERANK_API_KEY,
      model: env.RERANK_MODEL,
      timeoutMs: env.LLM_TIMEOUT_MS,
      maxRetries: env.LLM_MAX_RETRIES,
    });
  }
  if (chat) return new LlmListwiseReranker(chat);
  return learnedRerankerFor(env);
}
