export * from './chunking';
export * from './fusion';
export * from './ports';
export { l2Normalize } from './dense/l2-normalize';
export type { HydeGenerator, QueryExpander } from './expansion/query-expander.port';
export {
  feedbackPseudoDocument,
  feedbackTerms,
  feedbackVariants,
} from './expansion/pseudo-relevance-feedback';
export type { Reranker } from './rerank/reranker.port';
export { searchKnowledge } from './pipeline/search-knowledge';
export type { SearchPorts } from './pipeline/search-knowledge';
export { DEFAULT_SEARCH_OPTIONS } from './pipeline/search-options';
export type { SearchOptions } from './pipeline/search-options';
export type {
  BranchProvenance,
  GeneratorSource,
  SearchHit,
  SearchResult,
  SearchTimings,
} from './pipeline/search-result';
export { withDeadline } from './pipeline/with-deadline';
export { DEFAULT_CHUNKING, chunkDocument } from './indexing/chunk-document';
export type {
  ChunkingSettings,
  IndexableDocument,
  IndexingUnit,
  TextFormat,
} from './indexing/chunk-document';
