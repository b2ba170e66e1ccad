import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LlmListwiseReranker } from '@lumina/rag';
import type { AnyReranker, ChatModel } from '@lumina/rag';
import type { Env } from '../config/env.schema';
import { HttpReranker } from './http-reranker';
import { learnedRerankerFor } from './learned-reranker.loader';
import { OnnxCrossEncoderReranker } from './onnx-cross-encoder-reranker';

/**
 * The reranker the environment configures: a /v1/rerank endpoint when RERANK_BASE_URL is set, else the
 * in-process cross-encoder of RERANK_CROSS_ENCODER_DIR (named for reranking alone, so it goes before a
 * chat model that was configured for answers), else listwise reranking by the chat model when there is
 * one, else the learned reranker of RERANK_MODEL_FILE when a fitted model is given, else none (null).
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
  if (env.RERANK_CROSS_ENCODER_DIR)
    return crossEncoderFor(env.RERANK_CROSS_ENCODER_DIR, env.EMBEDDINGS_THREADS);
  if (chat) return new LlmListwiseReranker(chat);
  return learnedRerankerFor(env);
}

/** The cross-encoder of a folder; a folder without the model's files stops the boot, naming them. */
export function crossEncoderFor(dir: string, threads: number): OnnxCrossEncoderReranker {
  const missing = ['model.onnx', 'tokenizer.json'].filter((file) => !existsSync(join(dir, file)));
  if (missing.length > 0) {
    throw new Error(`RERANK_CROSS_ENCODER_DIR: ${dir} has no ${missing.join(' and no ')}`);
  }
  return new OnnxCrossEncoderReranker({ dir, threads });
}
