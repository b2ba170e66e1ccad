export * from './chunking';
export * from './conversion';
export * from './fusion';
export * from './lexical';
export * from './ports';
export { l2Normalize } from './dense/l2-normalize';
export { CoalescingEmbedder } from './embedding/coalescing-embedder';
export { queryTexts } from './embedding/query-texts';
export { compilePoolSentence, POOL_SENTENCE_SOURCE } from './embedding/sentence-pooling';
export type { PoolSentence, SentencePooling } from './embedding/sentence-pooling';
export type { HydeGenerator, QueryExpander } from './expansion/query-expander.port';
export {
  feedbackPseudoDocument,
  feedbackTerms,
  feedbackVariants,
} from './expansion/pseudo-relevance-feedback';
export { LlmQueryExpander } from './expansion/llm-query-expander';
export type { LlmQueryExpanderOptions } from './expansion/llm-query-expander';
export { LlmHydeGenerator } from './expansion/llm-hyde-generator';
export type { LlmHydeGeneratorOptions } from './expansion/llm-hyde-generator';
export { parseVariants } from './expansion/parse-variants';
export type { ParseVariantsOptions } from './expansion/parse-variants';
export {
  EXPANSION_LINES_PROMPT_VERSION,
  EXPANSION_PROMPT_VERSION,
  expansionLinesMessages,
  expansionMessages,
} from './expansion/prompts/expansion.prompt';
export { HYDE_PROMPT_VERSION, hydeMessages } from './expansion/prompts/hyde.prompt';
export { isEvidenceReranker } from './rerank/reranker.port';
export type {
  AnyReranker,
  EvidenceReranker,
  EvidenceRerankInput,
  Reranker,
  RerankCandidate,
  RerankExplanation,
} from './rerank/reranker.port';
export * from './rerank/learned';
export { toRerankCandidate } from './rerank/rerank-candidate';
export { LlmListwiseReranker } from './rerank/llm-listwise-reranker';
export { batchesByLength, encodeCrossEncoderPair, padCrossEncoderBatch } from './rerank/cross-encoder-input';
export type { CrossEncoderPair, CrossEncoderSpecialTokens } from './rerank/cross-encoder-input';
export type { LlmListwiseRerankerOptions } from './rerank/llm-listwise-reranker';
export { parseOrdering } from './rerank/parse-ordering';
export {
  LISTWISE_RERANK_PROMPT_VERSION,
  listwiseRerankMessages,
} from './rerank/prompts/listwise-rerank.prompt';
export { searchKnowledge } from './pipeline/search-knowledge';
export type { SearchPorts } from './pipeline/search-knowledge';
export { answerabilityModelOf, DEFAULT_SEARCH_OPTIONS } from './pipeline/search-options';
export type { SearchOptions } from './pipeline/search-options';
export type {
  BranchProvenance,
  ExpansionTrace,
  GeneratorSource,
  HydeTrace,
  SearchHit,
  SearchResult,
  SearchTimings,
} from './pipeline/search-result';
export { withDeadline } from './pipeline/with-deadline';
export { DEFAULT_CHUNKING, chunkDocument } from './indexing/chunk-document';
export { IDEOGRAPHIC_CHARS_PER_LATIN_CHAR, chunkingForLanguage } from './indexing/language-chunking';
export type {
  ChunkingSettings,
  IndexableDocument,
  IndexingUnit,
  TextFormat,
} from './indexing/chunk-document';
export * from './answer';
export * from './answerability';
export { isWhitespace, trailingChars, trimChars, trimCharsEnd, trimEndWhere } from './text/trim-chars';
export { mulberry32 } from './random/mulberry32';
export type { RandomSource } from './random/mulberry32';
export {
  DEFAULT_EXPANSION_POLICY_FIT,
  EXPANSION_POLICY_FEATURES,
  chooseThreshold,
  expansionProbePolicy,
  fitExpansionPolicy,
  parseExpansionPolicy,
  scoreConfidence,
} from './expansion/expansion-policy';
export type {
  ExpansionPolicy,
  ExpansionSample,
  FitExpansionPolicyOptions,
  PolicyPoint,
} from './expansion/expansion-policy';
