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
  /** Whether a language model is configured (offline: PRF expansion/HyDE and extractive answers). */
  llm: { configured: boolean; model: string | null };
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
