import type { EmbeddingProvider } from '@lumina/rag';
import type { Env } from '../config/env.schema';
import { HashEmbedder } from './hash-embedder';
import { LocalUseEmbedder } from './local-use-embedder';
import { OnnxSentenceEmbedder } from './onnx-sentence-embedder';
import { OpenAiEmbedder } from './openai-embedder';

/** The embedder the environment configures (without the cache). */
export function createEmbedder(env: Env): EmbeddingProvider {
  if (env.EMBEDDINGS_PROVIDER === 'openai') {
    return new OpenAiEmbedder({
      baseURL: env.EMBEDDINGS_BASE_URL as string,
      apiKey: env.EMBEDDINGS_API_KEY,
      model: env.EMBEDDINGS_MODEL as string,
      dimensions: env.EMBEDDINGS_DIMENSIONS as number,
      timeoutMs: env.EMBEDDINGS_TIMEOUT_MS,
      batchSize: env.EMBEDDINGS_BATCH_SIZE,
    });
  }
  if (env.EMBEDDINGS_PROVIDER === 'hash') return new HashEmbedder();
  if (env.EMBEDDINGS_PROVIDER === 'minilm') {
    return new OnnxSentenceEmbedder({ modelsDir: env.MODELS_DIR, threads: env.EMBEDDINGS_THREADS });
  }
  return new LocalUseEmbedder();
}
