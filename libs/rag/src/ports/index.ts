export type { EmbeddingProvider } from './embedding-provider.port';
export type { ChunkFilter, ChunkRecord, ChunkSearch, ScoredChunk } from './chunk-search.port';
