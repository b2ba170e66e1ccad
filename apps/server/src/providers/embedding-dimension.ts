import type { Env } from '../config/env.schema';
import { HASH_EMBEDDING_DIMENSION, HASH_EMBEDDING_MODEL } from './hash-embedder';
import { MINILM_DIMENSION, MINILM_L6_V2_INT8 } from './local-models/catalogue';

/** Universal Sentence Encoder lite returns 512-dimensional vectors. */
export const LOCAL_EMBEDDING_DIMENSION = 512;
export const LOCAL_EMBEDDING_MODEL = 'use-lite-512';

/** The dimension of the vectors the configured embedder returns: the chunks' vector column width. */
export function embeddingDimensionFor(env: Env): number {
  if (env.EMBEDDINGS_PROVIDER === 'local') return LOCAL_EMBEDDING_DIMENSION;
  if (env.EMBEDDINGS_PROVIDER === 'hash') return HASH_EMBEDDING_DIMENSION;
  if (env.EMBEDDINGS_PROVIDER === 'minilm') return MINILM_DIMENSION;
  return env.EMBEDDINGS_DIMENSIONS as number;
}

/** The model id the configured embedder gives its vectors (its `modelId`), without making the embedder. */
export function embeddingModelFor(env: Env): string {
  if (env.EMBEDDINGS_PROVIDER === 'local') return LOCAL_EMBEDDING_MODEL;
  if (env.EMBEDDINGS_PROVIDER === 'hash') return HASH_EMBEDDING_MODEL;
  if (env.EMBEDDINGS_PROVIDER === 'minilm') return MINILM_L6_V2_INT8.id;
  return `openai:${env.EMBEDDINGS_MODEL as string}`;
}
