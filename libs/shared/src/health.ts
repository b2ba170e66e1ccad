import type { RerankerSource } from './rerankers';

/** Whether a dependency the server needs answers. */
export type ComponentStatus = 'up' | 'down';

/** GET /health: every dependency's status (503 when the database or Redis does not answer). */
export interface HealthReport {
  status: 'ok' | 'degraded';
  database: {
    status: ComponentStatus;
    /** Embedded PGlite (the default) or PostgreSQL. */
    driver: 'pglite' | 'postgres';
    latencyMs: number;
    error?: string;
  };
  redis: { status: ComponentStatus; latencyMs: number; error?: string };
  /**
   * Whether a chat endpoint is configured (offline: extractive answers), who writes the search's
   * multi-query variants and HyDE passage, and the in-process model of LLM_PROVIDER=local.
   */
  llm: {
    configured: boolean;
    model: string | null;
    /** `endpoint`: LLM_BASE_URL's model; `local`: the in-process model; `offline`: pseudo-relevance feedback. */
    search: { source: 'endpoint' | 'local' | 'offline'; model: string | null };
    local: LocalModelHealth | null;
  };
  /** What serves `enableRerank`: a /v1/rerank endpoint, the LLM, a model fitted on a bank, or a model file. */
  reranker: { configured: boolean; model: string | null; source: RerankerSource | null };
  embedder: { model: string; dimension: number };
  /**
   * How many documents hold each language (ISO 639-1, given or detected); empty when the database does
   * not answer. A corpus that is nearly all one language shows it at a glance.
   */
  documentLanguages: Record<string, number>;
  uptimeSeconds: number;
}

/** The in-process LLM of LLM_PROVIDER=local: ready (its file checked by sha256), or missing and why. */
export interface LocalModelHealth {
  model: string;
  state: 'ready' | 'missing';
  description: string | null;
  /** The pinned sha256 the file was checked against. */
  sha256: string | null;
  /** How long loading took, once the first request loaded it; null before. */
  loadMs: number | null;
  threads: number | null;
  /** Requests it answers side by side (parallel sequences of one context). */
  sequences: number | null;
  reason?: string;
}

/** GET /health/ready: the database and Redis answer (503 otherwise). */
export interface ReadinessReport {
  status: 'ready' | 'not-ready';
  database: HealthReport['database'];
  redis: HealthReport['redis'];
}

/** GET /health/live: the process answers. Computed without I/O, so only a blocked event loop can delay it. */
export interface LivenessReport {
  status: 'alive';
  uptimeSeconds: number;
}
