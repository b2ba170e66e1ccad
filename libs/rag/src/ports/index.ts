export type { EmbeddingProvider } from './embedding-provider.port';
export type { ChunkFilter, ChunkRecord, ChunkSearch, ScoredChunk } from './chunk-search.port';
export type {
  ChatCompletion,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatStreamEvent,
  TokenUsage,
} from './chat-model.port';
export type { LanguageDetector } from './language-detector.port';
