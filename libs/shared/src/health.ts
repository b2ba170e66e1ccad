import { z } from './contract/zod';
import type { RerankerSource } from './rerankers';

export const COMPONENT_STATUSES = ['up', 'down'] as const;
/** Whether a dependency the server needs answers. */
export type ComponentStatus = (typeof COMPONENT_STATUSES)[number];

const RERANKER_SOURCES = [
  'endpoint',
  'llm',
  'fitted',
  'file',
  'cross-encoder',
] as const satisfies readonly RerankerSource[];

/** The database's answer to a probe: its `error` only when it is down. */
export const databaseHealthSchema = z.object({
  status: z.enum(COMPONENT_STATUSES),
  /** Embedded PGlite (the default) or PostgreSQL. */
  driver: z.enum(['pglite', 'postgres']),
  latencyMs: z.number(),
  error: z.string().optional(),
});

/** Redis's answer to a probe: its `error` only when it is down. */
export const redisHealthSchema = z.object({
  status: z.enum(COMPONENT_STATUSES),
  latencyMs: z.number(),
  error: z.string().optional(),
});

/** The in-process LLM of LLM_PROVIDER=local: ready (its file checked by sha256), or missing and why. */
export const localModelHealthSchema = z.object({
  model: z.string(),
  state: z.enum(['ready', 'missing']),
  description: z.string().nullable(),
  /** The pinned sha256 the file was checked against. */
  sha256: z.string().nullable(),
  /** How long loading took, once the first request loaded it; null before. */
  loadMs: z.number().nullable(),
  threads: z.number().nullable(),
  /** Requests it answers side by side (parallel sequences of one context). */
  sequences: z.number().nullable(),
  /** Why it is missing (only then). */
  reason: z.string().optional(),
});
export type LocalModelHealth = z.infer<typeof localModelHealthSchema>;

/** GET /health: every dependency's status (503 when the database or Redis does not answer). */
export const healthReportSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: databaseHealthSchema,
  redis: redisHealthSchema,
  /**
   * Whether a chat endpoint is configured (offline: extractive answers), who writes the search's
   * multi-query variants and HyDE passage, and the in-process model of LLM_PROVIDER=local.
   */
  llm: z.object({
    configured: z.boolean(),
    model: z.string().nullable(),
    /** `endpoint`: LLM_BASE_URL's model; `local`: the in-process model; `offline`: pseudo-relevance feedback. */
    search: z.object({ source: z.enum(['endpoint', 'local', 'offline']), model: z.string().nullable() }),
    local: localModelHealthSchema.nullable(),
  }),
  /** What serves `enableRerank`: a /v1/rerank endpoint, the LLM, a model fitted on a bank, or a model file. */
  reranker: z.object({
    configured: z.boolean(),
    model: z.string().nullable(),
    source: z.enum(RERANKER_SOURCES).nullable(),
  }),
  /**
   * The embedder, and after a switch to another one (the stored vectors were another model's) the
   * re-embedding of the chunks: `done` of `total` so far. Null when none is under way, and for callers
   * who are not admins (the total says how large the corpus is).
   */
  embedder: z.object({
    model: z.string(),
    dimension: z.number(),
    reembedding: z.object({ done: z.number(), total: z.number() }).nullable(),
    /**
     * Set when the default (EMBEDDINGS_PROVIDER=auto) could not run the in-process sentence encoder: why,
     * what serves instead and how to mend it. Null when the embedder is the one asked for.
     */
    fallback: z.string().nullable(),
  }),
  /**
   * How many documents hold each language (ISO 639-1, given or detected); empty when the database does
   * not answer. A corpus that is nearly all one language shows it at a glance.
   */
  documentLanguages: z.record(z.string(), z.number()),
  uptimeSeconds: z.number(),
});
export type HealthReport = z.infer<typeof healthReportSchema>;

/** GET /health/ready: the database and Redis answer (503 otherwise). */
export const readinessReportSchema = z.object({
  status: z.enum(['ready', 'not-ready']),
  database: databaseHealthSchema,
  redis: redisHealthSchema,
});
export type ReadinessReport = z.infer<typeof readinessReportSchema>;

/** GET /health/live: the process answers. Computed without I/O, so only a blocked event loop can delay it. */
export const livenessReportSchema = z.object({
  status: z.literal('alive'),
  uptimeSeconds: z.number(),
});
export type LivenessReport = z.infer<typeof livenessReportSchema>;
