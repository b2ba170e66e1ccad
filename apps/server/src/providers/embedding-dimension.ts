import type { Env } from '../config/env.schema';

/** Universal Sentence Encoder lite returns 512-dimensional vectors. */
export const LOCAL_EMBEDDING_DIMENSION = 512;
export const LOCAL_EMBEDDING_MODEL = 'use-lite-512';

/** The dimension of the vectors the configured embedder returns: the chunks' vector column width. */
export function embeddingDimensionFor(env: Env): number {
  return env.EMBEDDINGS_PROVIDER === 'local'
    ? LOCAL_EMBEDDING_DIMENSION
    : (env.EMBEDDINGS_DIMENSIONS as number);
}
