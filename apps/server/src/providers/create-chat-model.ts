import type { ChatModel } from '@lumina/rag';
import type { Env } from '../config/env.schema';
import { OpenAiChatModel } from './openai-chat-model';
import type { OpenAiChatModelOptions } from './openai-chat-model';

/** The chat model the environment configures, or null when no LLM is (the offline default). */
export function createChatModel(env: Env, onRetry?: OpenAiChatModelOptions['onRetry']): ChatModel | null {
  if (!env.LLM_BASE_URL || !env.LLM_MODEL) return null;
  return new OpenAiChatModel({
    baseURL: env.LLM_BASE_URL,
    apiKey: env.LLM_API_KEY,
    model: env.LLM_MODEL,
    timeoutMs: env.LLM_TIMEOUT_MS,
    maxRetries: env.LLM_MAX_RETRIES,
    onRetry,
  });
}
