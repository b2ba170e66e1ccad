import type { EmbeddingProvider, SearchOptions, SearchPorts } from '@lumina/rag';
import type { DataSource } from 'typeorm';
import type { Env } from '../../config/env.schema';
import { CachedEmbedder } from '../../providers/cached-embedder';
import { answerabilityModelsFor } from './answerability-model.loader';
import { expansionPolicyFor } from './expansion-policy.loader';
import { denseLanguagesFor, fusionFor, fusionWeightsFor } from './fusion-weights';
import { llmSearchPortsFromEnv } from './llm-search-ports';
import { SqlChunkSearch } from './repositories/sql-chunk-search';

/**
 * The ports and options every search runs with — the API, the chat, the eval CLI and the evaluation
 * jobs all build them here, so an evaluated ranking is the app's ranking.
 */
export function createSearchPorts(
  dataSource: DataSource,
  env: Env,
  embedder: EmbeddingProvider,
  /** LLM ports (expander, HyDE, reranker); by default the ones the environment configures. */
  extra: Partial<Omit<SearchPorts, 'chunks' | 'embedder'>> = llmSearchPortsFromEnv(env),
  /** Where the chunk searches read (a read replica, DATABASE_READ_URL); the embedding cache writes to
   * `dataSource`. Default: `dataSource`. */
  searchDataSource: DataSource = dataSource,
): { ports: SearchPorts; options: Partial<SearchOptions>; embedder: CachedEmbedder } {
  const cached = embedder instanceof CachedEmbedder ? embedder : new CachedEmbedder(embedder, dataSource);
  return {
    ports: {
      chunks: new SqlChunkSearch(searchDataSource, {
        k1: env.BM25_K1,
        b: env.BM25_B,
        efSearch: env.HNSW_EF_SEARCH,
        storage: env.EMBEDDING_STORAGE,
      }),
      embedder: cached,
      ...extra,
    },
    options: {
      weights: fusionWeightsFor(cached.modelId),
      fusion: fusionFor(cached.modelId),
      denseLanguages: denseLanguagesFor(cached.modelId),
      llmTimeoutMs: env.LLM_TIMEOUT_MS,
      ...answerabilityModelsFor(env, cached.modelId),
      expansionPolicy: expansionPolicyFor(env),
    },
    embedder: cached,
  };
}
