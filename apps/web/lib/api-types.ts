/**
 * Shapes of the Lumina HTTP API as the web app reads them.
 * Candidates for libs/shared once the server publishes its DTOs there.
 */

export type ServiceStatus = 'up' | 'down' | (string & {});

export interface HealthReport {
  status: 'ok' | 'degraded' | (string & {});
  database: { status: ServiceStatus; driver?: string };
  redis: { status: ServiceStatus };
  [extra: string]: unknown;
}

/** Which retrieval branch found a passage, and where it ranked there. */
export interface Provenance {
  branch: string;
  rank: number;
  score: number;
}

export interface SearchResult {
  chunkId: string;
  documentId: string;
  documentTitle: string;
  headingPath: string[];
  anchor: string;
  text: string;
  score: number;
  provenance: Provenance[];
}

export interface SearchResponse {
  results: SearchResult[];
  expansions: string[];
  hyde: string | null;
  /** Milliseconds per stage, e.g. { total: 120, dense: 40 }. */
  timings: Record<string, number>;
  warnings: string[];
  /** True when nothing cleared the similarity threshold: the documents don't say. */
  belowThreshold: boolean;
}

/** The JSON body the server sends with an error status. */
export interface ApiErrorBody {
  statusCode?: number;
  message?: string | string[];
  error?: string;
}
