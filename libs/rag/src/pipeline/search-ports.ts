import type { HydeGenerator, QueryExpander } from '../expansion/query-expander.port';
import type { ChunkSearch } from '../ports/chunk-search.port';
import type { EmbeddingProvider } from '../ports/embedding-provider.port';
import type { LanguageDetector } from '../ports/language-detector.port';
import type { AnyReranker } from '../rerank/reranker.port';

export interface SearchPorts {
  chunks: ChunkSearch;
  embedder: EmbeddingProvider;
  /** LLM query expansion; without it, expansion uses pseudo-relevance feedback. */
  expander?: QueryExpander;
  /** LLM HyDE; without it, the top passages of the original query are the pseudo-document. */
  hyde?: HydeGenerator;
  /** A /v1/rerank endpoint or the LLM (text in, scores out), or the learned reranker (index evidence). */
  reranker?: AnyReranker;
  /** Tells the question's language: the result says it, and a dense encoder that reads only some
   *  languages (SearchOptions.denseLanguages) gets no weight in the hybrid for the others. */
  languages?: LanguageDetector;
  now?: () => number;
}
