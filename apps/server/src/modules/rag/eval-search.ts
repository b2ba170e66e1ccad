import { isEvidenceReranker, searchKnowledge } from '@lumina/rag';
import type {
  AnyReranker,
  EmbeddingProvider,
  LanguageDetector,
  SearchOptions,
  SearchResult,
} from '@lumina/rag';
import type { SearchSettings } from '@lumina/shared';
import type { DataSource } from 'typeorm';
import type { Env } from '../../config/env.schema';
import type { CachedEmbedder } from '../../providers/cached-embedder';
import { llmSearchPortsFromEnv } from './llm-search-ports';
import { createSearchPorts } from './search-ports.factory';

export interface EvalSearch {
  embedder: CachedEmbedder;
  options: Partial<SearchOptions>;
  /** The model id of the reranker the environment configures (null: none). */
  rerankerId: string | null;
  /** The configured reranker weighs the query's cosine to each candidate (the corpus needs vectors). */
  rerankerNeedsQueryVector: boolean;
  search(query: string, settings: Partial<SearchSettings>): Promise<SearchResult>;
}

/**
 * The eval commands' search: the API's ports and options (createSearchPorts), plus explicit overrides;
 * `reranker` replaces the one the environment configures (e.g. a model fitted in the same command).
 */
export function createEvalSearch(
  dataSource: DataSource,
  env: Env,
  embedder: EmbeddingProvider,
  overrides: Partial<SearchOptions> = {},
  reranker?: AnyReranker,
  /** The question's language, for an embedder that reads only some languages (as the API's search). */
  languages?: LanguageDetector,
): EvalSearch {
  const llm = { ...llmSearchPortsFromEnv(env), ...(languages ? { languages } : {}) };
  const built = createSearchPorts(dataSource, env, embedder, reranker ? { ...llm, reranker } : llm);
  const options = { ...built.options, ...overrides };
  return {
    embedder: built.embedder,
    options,
    rerankerId: built.ports.reranker?.modelId ?? null,
    rerankerNeedsQueryVector:
      !!built.ports.reranker &&
      isEvidenceReranker(built.ports.reranker) &&
      built.ports.reranker.needsQueryVector === true,
    search: (query, settings) => searchKnowledge(query, settings, built.ports, options),
  };
}
