export type { EmbeddingProvider } from './embedding-provider.port';
export type { ChunkFilter, ChunkRecord, ChunkSearch, ScoredChunk } from './chunk-search.port';
export type {
  ChatCompletion,
  ChatMessage,
  ChatModel,
  CompletionRequest,
  CompletionEvent,
  TokenUsage,
} from './chat-model.port';
export { CompletionError } from './completion-error';
export type { LanguageDetector, LanguageGuess } from './language-detector.port';
