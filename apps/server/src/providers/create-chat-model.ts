import type { ChatModel } from '@lumina/rag';
import type { Env } from '../config/env.schema';
import { LocalChatModel } from './local-chat-model';
import { LOCAL_CHAT_MODELS } from './local-models/catalogue';
import { modelState } from './local-models/model-files';
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

/** The local model LLM_PROVIDER=local configures, whether its file is in MODELS_DIR, and why not. */
export type LocalChatModelSetup =
  | { readonly state: 'off' }
  | { readonly state: 'ready'; readonly model: LocalChatModel }
  | { readonly state: 'missing'; readonly model: string; readonly reason: string };

/**
 * The in-process LLM, when LLM_PROVIDER=local and no endpoint (LLM_BASE_URL) takes precedence. Its file
 * is checked by sha256 once, here: a missing or changed file leaves the search offline, and says why.
 */
export function createLocalChatModel(env: Env): LocalChatModelSetup {
  if (env.LLM_PROVIDER !== 'local' || env.LLM_BASE_URL) return { state: 'off' };
  const spec =
    LOCAL_CHAT_MODELS.find((candidate) => candidate.id === env.LLM_LOCAL_MODEL) ?? LOCAL_CHAT_MODELS[0];
  const files = modelState(env.MODELS_DIR, spec);
  if (!files.ready) {
    return {
      state: 'missing',
      model: spec.id,
      reason: `${spec.id} is not in ${files.dir} (run npm run models:fetch): the search writes expansion and HyDE offline`,
    };
  }
  return {
    state: 'ready',
    model: new LocalChatModel(spec, {
      modelsDir: env.MODELS_DIR,
      threads: env.LLM_THREADS,
      sequences: env.LLM_LOCAL_SEQUENCES,
      contextSize: env.LLM_LOCAL_CONTEXT_TOKENS,
      maxTokens: env.LLM_LOCAL_MAX_TOKENS,
      timeoutMs: env.LLM_TIMEOUT_MS,
    }),
  };
}

/**
 * The model that writes the search's expansion and HyDE: the endpoint's chat model when one is configured,
 * else the local model, else none (offline stand-ins).
 */
export function searchModel(chat: ChatModel | null, local: LocalChatModelSetup): ChatModel | null {
  return chat ?? (local.state === 'ready' ? local.model : null);
}
