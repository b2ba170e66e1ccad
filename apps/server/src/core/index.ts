/**
 * The server's one entry for the tools (the benchmarks and scale tooling of tools/bench): what they may
 * use of the server, and nothing else. Prefer the core as a Nest application context and its services;
 * the lower pieces below are for benchmarks that measure or bulk-load around them.
 */

// Configuration: the one env schema.
export { ENV_KEYS } from '../config/env.schema';
export type { Env } from '../config/env.schema';
export { loadEnv } from '../config/load-env';

// The core without HTTP, as a Nest application context, and what a tool takes from it.
export { createCoreContext, withCoreContext } from './core-context';
export type { CoreContext } from './core-context';
export { BeirCorpusIndexer } from '../modules/ingestion/beir-corpus-indexer.service';
export { EvalSearchFactory } from '../modules/rag/eval-search.factory';
export { CHAT_MODEL, EMBEDDER } from '../providers/providers.module';

// The whole server: the HTTP app in this process, or the built processes as children.
export { createHttpApp } from '../bootstrap/create-http-app';
export { openDatabase } from '../database/database-connection';
export type { DatabaseConnection } from '../database/database-connection';
export { QueueName } from '../jobs/queue-name.enum';
export { generateApiKey } from '../modules/auth/api-key';
export { SERVER_ENTRY_POINTS } from './server-entry-points';

// Pieces the benchmarks measure, or load data around.
export { buildDataSourceOptions } from '../app-data-source';
export { PGLITE_EXTENSIONS } from '../database/embedded/embedded-postgres';
export { CHUNK_EMBEDDING_INDEX, cosineOpsFor, toVectorLiteral } from '../database/pgvector';
export type { EmbeddingStorage } from '../database/pgvector';
export { IndexingService } from '../modules/ingestion/indexing.service';
export { DocxParser } from '../modules/ingestion/parsers/docx.parser';
export type { ParsedText } from '../modules/ingestion/parsers/document-parser';
export { HtmlParser } from '../modules/ingestion/parsers/html.parser';
export { PdfParser } from '../modules/ingestion/parsers/pdf.parser';
export { llmExpander, llmSearchPorts } from '../modules/rag/llm-search-ports';
export { denseSearchSql } from '../modules/rag/repositories/sql/dense-search.sql';
export { BM25_MAX_QUERY_TERMS, BM25_SEARCH_SQL } from '../modules/rag/repositories/sql/bm25-search.sql';
export { SqlChunkSearch } from '../modules/rag/repositories/sql-chunk-search';
export { DEFAULT_BM25_PRUNING } from '../modules/rag/repositories/bm25-pruned-search';
export type { Bm25PruningOptions, Bm25SearchStats } from '../modules/rag/repositories/bm25-pruned-search';
export { embeddingCacheKey } from '../providers/cached-embedder';
export { createEmbedder } from '../providers/create-embedder';
export { createLocalChatModel } from '../providers/create-chat-model';
export { learnedRerankerFor } from '../providers/learned-reranker.loader';
export { freePort } from '../common/net/free-port';
export { readLines } from '../files/node-dataset-files';

// The command-line kit every tool shares: flags, usage errors, datasets, progress.
export { flags, nonNegativeInt, parseFlags, positiveInt, runCommand, UsageError } from '../cli/cli-args';
export {
  datasetDirOf,
  evalDbDir,
  loadEvalDataset,
  withEvalDatabase,
  writeReport,
} from '../cli/command-context';
export { envChunking } from '../config/env-chunking';
export { progressReporter } from '../cli/progress';
