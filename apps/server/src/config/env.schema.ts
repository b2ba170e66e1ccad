import { availableParallelism, homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { DOCUMENT_LANGUAGES } from '@lumina/shared';
import { chooseEmbedder } from '../providers/embedder-choice';
import type { EmbeddingsProviderName } from '../providers/embedder-choice';
import { LOCAL_CHAT_MODELS } from '../providers/local-models/catalogue';

const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const optionalUrl = z.string().url().optional();

/**
 * The one environment schema. Every variable the server and worker read is declared here, with
 * defaults that run offline on one machine. Nothing else reads process.env.
 */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: port.default(3000),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Origins allowed to call the API from a browser (CORS), comma-separated. */
    WEB_ORIGIN: z
      .string()
      .default('http://127.0.0.1:3001,http://localhost:3001')
      .transform((value) =>
        value
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().url('each origin must be a URL such as http://localhost:3001')).min(1)),

    /** Unset: embedded PGlite + pgvector inside the process. Set: a PostgreSQL with pgvector. */
    DATABASE_URL: optionalUrl,
    /**
     * A streaming replica (hot standby) of DATABASE_URL for the search ports (POST /rag/search, chat
     * retrieval, evaluation runs); every write, the embedding cache included, goes to DATABASE_URL.
     */
    DATABASE_READ_URL: optionalUrl,
    DATABASE_POOL_SIZE: positiveInt.max(100).default(10),
    PGLITE_DATA_DIR: z.string().min(1).default('./.data/pglite'),
    PGLITE_MAX_CONNECTIONS: positiveInt.max(16).default(4),
    DATABASE_MIGRATIONS_RUN: booleanFromString.default('true'),

    REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
    /** Prefix of every BullMQ key: several Lumina installations (or test runs) can share one Redis. */
    QUEUE_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only')
      .default('lumina'),
    /** Run the BullMQ workers inside the API process (the one-command embedded mode). */
    WORKERS_IN_PROCESS: booleanFromString.default('true'),
    /**
     * Jobs a worker runs side by side. They mostly wait for the embedder, and while some write their
     * chunks others have embedding requests queued, so the model never idles: 200 SciFact abstracts with
     * the local model ran at 0.78 of the bare model's speed with 4 jobs and 0.90 with 8 (bench:ingest).
     */
    INGESTION_CONCURRENCY: positiveInt.max(32).default(8),
    /**
     * Each document is parsed and chunked on a worker thread, never on the API's event loop. Past this many
     * seconds its thread is stopped and the document fails ("parsing took longer than N s"), without retries.
     */
    INGESTION_PARSE_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(60),
    /** Heap limit of a parsing thread; a document that needs more fails instead of exhausting the server. */
    INGESTION_PARSE_MEMORY_MB: positiveInt.min(64).max(16384).default(1024),

    /**
     * `auto` (default): an embeddings endpoint when EMBEDDINGS_BASE_URL is set, else all-MiniLM-L6-v2 when
     * its files are in MODELS_DIR, else Universal Sentence Encoder lite, saying why on /health (resolved once,
     * by validateEnv). `local`: Universal Sentence Encoder lite, shipped in an npm package. `minilm`:
     * all-MiniLM-L6-v2 on onnxruntime, in process, from MODELS_DIR (`npm run models:fetch`). `hash`: a
     * deterministic stand-in that costs nothing (benchmarks of the pipeline only).
     */
    EMBEDDINGS_PROVIDER: z.enum(['auto', 'local', 'minilm', 'openai', 'hash']).default('auto'),
    /** onnxruntime's threads for one batch of an in-process ONNX model. */
    EMBEDDINGS_THREADS: positiveInt.max(64).default(1),
    EMBEDDINGS_BASE_URL: optionalUrl,
    EMBEDDINGS_API_KEY: z.string().optional(),
    EMBEDDINGS_MODEL: z.string().min(1).optional(),
    EMBEDDINGS_DIMENSIONS: positiveInt.max(16000).optional(),
    EMBEDDINGS_BATCH_SIZE: positiveInt.max(2048).default(32),
    EMBEDDINGS_TIMEOUT_MS: positiveInt.default(30000),

    /**
     * Where in-process models' files live, one folder per model, each file checked by sha256. Outside
     * the checkout by default, so clones share it and a second fetch downloads nothing.
     */
    MODELS_DIR: z
      .string()
      .min(1)
      .default(join(homedir(), '.cache', 'lumina', 'models')),
    /** The package index (PEP 691 JSON) whose wheels carry the models' files. */
    MODELS_INDEX_URL: z.string().url().default('https://pypi.org/simple'),

    BM25_K1: z.coerce.number().min(0).max(10).default(0.9),
    BM25_B: z.coerce.number().min(0).max(1).default(0.4),
    HNSW_EF_SEARCH: positiveInt.max(1000).default(100),

    // --- Vector storage (scale) ---
    /**
     * How chunk vectors are stored: `vector` (4-byte floats) or `halfvec` (2-byte floats: half the
     * table and HNSW index size, recall within a hair of `vector`). Applied by a migration; the server
     * refuses to start on a database that stores the other type.
     */
    EMBEDDING_STORAGE: z.enum(['vector', 'halfvec']).default('vector'),
    CHUNK_MAX_CHARS: positiveInt.max(20000).default(1200),
    CHUNK_OVERLAP_CHARS: z.coerce.number().int().min(0).default(200),
    /**
     * The language (ISO 639-1) of every document whose upload names none: no detection. Unset: each
     * document's language is detected and weighed against the corpus's (README, "Retrieval in other
     * languages").
     */
    DEFAULT_LANGUAGE: z
      .string()
      .trim()
      .toLowerCase()
      .refine((code) => DOCUMENT_LANGUAGES.includes(code), {
        message: 'must be an ISO 639-1 code such as en, de or zh',
      })
      .optional(),

    // --- LLM and reranker (optional; unset = offline: PRF expansion/HyDE, no LLM reranking) ---
    /** OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, LM Studio), e.g. http://127.0.0.1:11434/v1 */
    LLM_BASE_URL: optionalUrl,
    LLM_API_KEY: z.string().optional(),
    /** The chat model name the endpoint knows (required with LLM_BASE_URL). */
    LLM_MODEL: z.string().min(1).optional(),
    /**
     * Per attempt: until the whole answer, or when streaming until the first byte and between chunks.
     * Also the search's deadline for each LLM call (expansion, HyDE, rerank).
     */
    LLM_TIMEOUT_MS: positiveInt.max(600_000).default(30000),
    /** Retries (exponential backoff, Retry-After honoured) on 408/409/429/5xx and connection errors. */
    LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
    /**
     * `local`: a small LLM in process (llama.cpp, CPU) writes the search's multi-query variants and HyDE
     * passage; answers stay extractive. Its file comes from MODELS_DIR (`npm run models:fetch`); when it is
     * missing the search stays offline and /health says so. LLM_BASE_URL, when set, takes precedence.
     * `none`: no LLM without LLM_BASE_URL (pseudo-relevance feedback writes expansion and HyDE).
     */
    LLM_PROVIDER: z.enum(['none', 'local']).default('none'),
    /** Which local model LLM_PROVIDER=local runs. */
    LLM_LOCAL_MODEL: z
      .enum(LOCAL_CHAT_MODELS.map((spec) => spec.id) as [string, ...string[]])
      .default(LOCAL_CHAT_MODELS[0].id),
    /**
     * llama.cpp's threads for the local model (all its requests share them). Default: one fewer than the
     * machine's cores (at least 1). With as many threads as cores, llama.cpp's threads wait on each other
     * whenever anything else runs: on two cores with one busy, a HyDE passage took 11.0 s at 2 threads and
     * 1.3 s at 1 (p50, `bench:llm`, same run).
     */
    LLM_THREADS: positiveInt.max(64).default(() => Math.max(1, availableParallelism() - 1)),
    /**
     * Requests the local model answers side by side, as parallel sequences of one context (one copy of the
     * weights): expansion and HyDE of one search need 2.
     */
    LLM_LOCAL_SEQUENCES: positiveInt.max(16).default(2),
    /** Tokens each of the local model's sequences holds, prompt and answer together. */
    LLM_LOCAL_CONTEXT_TOKENS: positiveInt.min(256).max(32768).default(2048),
    /** The longest answer the local model writes, whatever a request asks. */
    LLM_LOCAL_MAX_TOKENS: positiveInt.max(8192).default(256),
    /**
     * A /v1/rerank-style endpoint (Cohere, Jina, TEI, vLLM), e.g. http://127.0.0.1:8080/v1.
     * Unset: the cross-encoder of RERANK_CROSS_ENCODER_DIR, else an LLM listwise reranker when
     * LLM_BASE_URL is set, else no reranker.
     */
    RERANK_BASE_URL: optionalUrl,
    RERANK_API_KEY: z.string().optional(),
    RERANK_MODEL: z.string().min(1).optional(),
    /**
     * A folder holding a cross-encoder exported to ONNX (`model.onnx`, one relevance logit, with its
     * `tokenizer.json`), e.g. cross-encoder/ms-marco-MiniLM-L-6-v2: run in process on onnxruntime as the
     * reranker of `enableRerank` when no RERANK_BASE_URL is set (before the LLM listwise). Its threads are
     * EMBEDDINGS_THREADS.
     */
    RERANK_CROSS_ENCODER_DIR: z.string().min(1).optional(),
    /**
     * A fitted learned-reranker model (JSON written by the rerank eval suite's --fit): the reranker of
     * `enableRerank` when no RERANK_BASE_URL and no LLM is configured. Unset: no offline reranker.
     */
    RERANK_MODEL_FILE: z.string().min(1).optional(),

    /** A BEIR-format folder the eval command uses when --dataset is not given. */
    EVAL_DATASET_DIR: z.string().min(1).optional(),
    /**
     * A fitted answerability model (JSON written by the answerability eval suite's --fit) used instead
     * of the one the project ships; "off" answers every question.
     */
    ANSWERABILITY_MODEL_FILE: z.string().min(1).optional(),
    /**
     * A fitted adaptive-expansion policy (JSON written by the adaptive eval suite's --fit) used instead of
     * the one the project ships; "off": adaptive expansion and HyDE always run.
     */
    EXPANSION_POLICY_FILE: z.string().min(1).optional(),
    /** The XQuAD folder (xquad-zh/, xquad-de/, … in BEIR form) the eval gate reads with --suite xquad. */
    XQUAD_DATASET_DIR: z.string().min(1).optional(),
    /** The NFCorpus train+dev folder (BEIR form) the eval gate reads with --suite nfcorpus. */
    NFCORPUS_DATASET_DIR: z.string().min(1).optional(),

    // --- Question banks and their evaluation runs ---
    /** Bank items searched at once by an evaluation run (POST /question-banks/:id/evaluate). */
    EVALUATION_CONCURRENCY: positiveInt.max(32).default(2),

    // --- Ingestion: uploads, background workers, admin dashboard ---
    /** Where uploaded files wait for a worker (shared with worker processes); removed once indexed. */
    UPLOAD_DIR: z.string().min(1).default('./.data/uploads'),
    /** Largest accepted upload, per file, in bytes (larger: 413). */
    UPLOAD_MAX_BYTES: positiveInt.max(2 ** 40).default(50 * 1024 * 1024),
    /** Most files accepted in one POST /documents. */
    UPLOAD_MAX_FILES: positiveInt.max(1000).default(20),
    /** A worker holds a job's lock this long without renewing it before the job counts as stalled. */
    WORKER_LOCK_DURATION_MS: positiveInt.max(3_600_000).default(30000),
    /** How often workers look for stalled jobs (a crashed worker's job is retried after this). */
    WORKER_STALLED_INTERVAL_MS: positiveInt.max(3_600_000).default(30000),
    /**
     * How often the API looks for documents whose status says queued or in progress but which have no
     * live job (Redis lost its data, a crash between the database and the queue) and queues them again.
     * It also runs once at boot.
     */
    RECONCILE_INTERVAL_MS: positiveInt.min(1000).max(86_400_000).default(60000),
    /**
     * The bootstrap admin API key. Set: every request needs an API key (x-api-key header, Bearer token or
     * basic-auth password); this one is an admin key. Unset (local mode): the API must listen on a loopback
     * HOST, keyless direct-loopback requests act as admin, and an admin key is generated (printed once).
     */
    ADMIN_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),

    // --- Sources: folders and Git repositories kept in sync ---
    /**
     * The server folders a folder source (or a Git source given as a server path) may read, as absolute
     * paths separated by commas. Empty: no folder source can be created.
     */
    SOURCE_FOLDER_ROOTS: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((root) => root.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().startsWith('/', 'each root must be an absolute path'))),
    /** Where Git sources are cloned (one bare repository per source), shared by the workers. */
    SOURCE_CACHE_DIR: z.string().min(1).default('./.data/sources'),
    /** The git executable Git sources run: a name found in /usr/local/bin, /usr/bin or /bin, or a path. */
    SOURCE_GIT_COMMAND: z.string().min(1).default('git'),
    /** The longest a single git command (clone, fetch, …) of a sync may run, in seconds. */
    SOURCE_GIT_TIMEOUT_SECONDS: positiveInt.max(86_400).default(300),
    /** Sources synced side by side by a worker (each source is never synced twice at once). */
    SOURCE_SYNC_CONCURRENCY: positiveInt.max(16).default(2),
    /** The most files a source may hold; a sync that lists more fails, saying so, and changes nothing. */
    SOURCE_MAX_ITEMS: positiveInt.max(1_000_000).default(10_000),
    /**
     * Hosts a website source may reach although they resolve to a private, loopback or link-local address
     * (an intranet wiki), as host names or IP addresses separated by commas. Others are refused.
     */
    SOURCE_ALLOWED_HOSTS: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((host) => host.trim().toLowerCase())
          .filter(Boolean),
      ),
    /** The longest a website source waits for one page, in seconds. */
    SOURCE_PAGE_TIMEOUT_SECONDS: positiveInt.max(600).default(30),
    /** The longest a website crawl may take; past it the sync fails, saying so, and changes nothing. */
    SOURCE_CRAWL_TIMEOUT_SECONDS: positiveInt.max(86_400).default(1800),
    /** How often the API looks for sources whose schedule says a sync is due. */
    SOURCE_SCHEDULER_INTERVAL_MS: positiveInt.min(1000).max(3_600_000).default(60_000),

    // --- HTTP hardening: request body limit and rate limits ---
    /** Largest JSON or form request body (bytes, or a size such as 512kb, 1mb); larger: 413. */
    REQUEST_BODY_LIMIT: z
      .string()
      .regex(/^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i, 'a size such as 100kb or 1mb')
      .default('1mb'),
    /** POST /chat and POST /rag/search requests per minute per client (its API key, else its IP); over it: 429. */
    RATE_LIMIT_PER_MINUTE: positiveInt.max(1_000_000).default(120),
    /** Every other POST, PUT, PATCH and DELETE, per minute per client; over it: 429. */
    RATE_LIMIT_WRITES_PER_MINUTE: positiveInt.max(1_000_000).default(600),
  })
  .superRefine((env, ctx) => {
    const endpoint =
      env.EMBEDDINGS_PROVIDER === 'openai' ||
      (env.EMBEDDINGS_PROVIDER === 'auto' && env.EMBEDDINGS_BASE_URL !== undefined);
    if (endpoint) {
      for (const key of ['EMBEDDINGS_BASE_URL', 'EMBEDDINGS_MODEL', 'EMBEDDINGS_DIMENSIONS'] as const) {
        if (env[key] === undefined) {
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            path: [key],
            message:
              env.EMBEDDINGS_PROVIDER === 'openai'
                ? 'is required when EMBEDDINGS_PROVIDER=openai'
                : 'is required when EMBEDDINGS_BASE_URL is set (an embeddings endpoint)',
          });
        }
      }
    }
    if (env.DATABASE_READ_URL !== undefined && env.DATABASE_URL === undefined) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['DATABASE_READ_URL'],
        message:
          'needs DATABASE_URL: a read replica is one of a PostgreSQL primary, not of the embedded database',
      });
    }
    if (env.LLM_BASE_URL !== undefined && env.LLM_MODEL === undefined) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['LLM_MODEL'],
        message: 'is required when LLM_BASE_URL is set',
      });
    }
    if (env.CHUNK_OVERLAP_CHARS >= env.CHUNK_MAX_CHARS) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['CHUNK_OVERLAP_CHARS'],
        message: `must be smaller than CHUNK_MAX_CHARS (${env.CHUNK_MAX_CHARS})`,
      });
    }
  });

/**
 * The validated environment, with EMBEDDINGS_PROVIDER resolved (never `auto`) and, when `auto` could not
 * take the in-process sentence encoder, why (`embeddingsFallback`).
 */
export type Env = Omit<z.infer<typeof envSchema>, 'EMBEDDINGS_PROVIDER'> & {
  EMBEDDINGS_PROVIDER: EmbeddingsProviderName;
  readonly embeddingsFallback?: string;
};

/** Names of every variable the schema knows (used to check docker-compose and the README). */
export const ENV_KEYS = Object.keys(envSchema._def.schema.shape) as (keyof Env)[];

/** Variables whose values are secrets: never logged. */
export const SECRET_ENV_KEYS: readonly (keyof Env)[] = [
  'DATABASE_URL',
  'DATABASE_READ_URL',
  'EMBEDDINGS_API_KEY',
  'LLM_API_KEY',
  'ADMIN_API_KEY',
  'RERANK_API_KEY',
];

export class EnvValidationError extends Error {
  constructor(readonly issues: { variable: string; message: string }[]) {
    super(
      'Invalid environment configuration:\n' +
        issues.map((issue) => `  - ${issue.variable}: ${issue.message}`).join('\n'),
    );
    this.name = 'EnvValidationError';
  }
}

/** Validate a raw environment (process.env at boot) and return typed config, or throw naming each bad variable. */
export function validateEnv(input: Record<string, string | undefined>): Env {
  // An empty value means "not set" (compose writes VAR= for an unset ${VAR:-}).
  const raw = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== ''));
  const result = envSchema.safeParse(raw);
  if (!result.success) {
    throw new EnvValidationError(
      result.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? '(environment)'),
        message:
          issue.path[0] !== undefined && raw[String(issue.path[0])] !== undefined
            ? `${issue.message} (got "${redact(String(issue.path[0]), raw[String(issue.path[0])])}")`
            : issue.message,
      })),
    );
  }
  const choice = chooseEmbedder(result.data);
  return {
    ...result.data,
    EMBEDDINGS_PROVIDER: choice.provider,
    ...(choice.fallback === null ? {} : { embeddingsFallback: choice.fallback }),
  };
}

function redact(key: string, value: string | undefined): string {
  return (SECRET_ENV_KEYS as readonly string[]).includes(key) ? '***' : String(value);
}
