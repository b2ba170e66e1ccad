import type { SearchSettings } from '@lumina/shared';
import {
  abortedError,
  ApiError,
  httpError,
  invalidResponseError,
  timeoutError,
  unreachableError,
} from './api-errors';
import { API_OPERATIONS, type ApiOperation } from './api-operations';
import type { HealthReport, Provenance, SearchResponse, SearchResult } from './api-types';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface ApiClientOptions {
  /** e.g. http://127.0.0.1:3000 (a trailing slash is ignored). */
  baseUrl: string;
  /** Injected in tests; defaults to the global fetch. */
  fetch?: FetchLike;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface ApiClient {
  readonly baseUrl: string;
  /** GET /health. A degraded server still answers with its report. */
  getHealth: (options?: RequestOptions) => Promise<HealthReport>;
  /** POST /rag/search with the fully merged settings, so the server never guesses. */
  search: (query: string, settings: SearchSettings, options?: RequestOptions) => Promise<SearchResponse>;
}

/** Every failure is thrown as an ApiError whose message is a sentence for a person. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function call(operation: ApiOperation, body: unknown, signal?: AbortSignal) {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, operation.timeoutMs);
    const forwardAbort = () => controller.abort();
    if (signal?.aborted) controller.abort();
    signal?.addEventListener('abort', forwardAbort, { once: true });

    try {
      const response = await doFetch(`${baseUrl}${operation.path}`, {
        method: operation.method,
        headers:
          body === undefined
            ? { Accept: 'application/json' }
            : { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
        credentials: 'omit',
        signal: controller.signal,
      });
      const text = await response.text();
      return { status: response.status, ok: response.ok, json: parseJson(text) };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (timedOut) throw timeoutError(operation);
      if (signal?.aborted) throw abortedError(operation);
      throw unreachableError(operation, baseUrl, error);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forwardAbort);
    }
  }

  return {
    baseUrl,

    async getHealth({ signal } = {}) {
      const operation = API_OPERATIONS.health;
      const { status, ok, json } = await call(operation, undefined, signal);
      const report = parseHealth(json);
      // A degraded server may answer 503 with its report: the report is what the badge needs.
      if (report && (ok || status === 503)) return report;
      if (!ok) throw httpError({ status, body: json, operation });
      throw invalidResponseError(operation, status, 'expected { status, database, redis }');
    },

    async search(query, settings, { signal } = {}) {
      const operation = API_OPERATIONS.search;
      const { status, ok, json } = await call(operation, { query, settings }, signal);
      if (!ok) throw httpError({ status, body: json, operation });
      const response = parseSearchResponse(json);
      if (!response) throw invalidResponseError(operation, status, 'expected { results: [...] }');
      return response;
    },
  };
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

type UnknownRecord = Record<string, unknown>;

function isRecord(value: unknown): value is UnknownRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

function num(value: unknown, fallback = 0): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function parseHealth(json: unknown): HealthReport | null {
  if (!isRecord(json) || typeof json.status !== 'string') return null;
  const database = isRecord(json.database) ? json.database : {};
  const redis = isRecord(json.redis) ? json.redis : {};
  return {
    ...json,
    status: json.status,
    database: {
      status: str(database.status, 'unknown'),
      ...(typeof database.driver === 'string' ? { driver: database.driver } : {}),
    },
    redis: { status: str(redis.status, 'unknown') },
  };
}

function parseProvenance(value: unknown): Provenance[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((item) => ({
    branch: str(item.branch, 'unknown'),
    rank: num(item.rank),
    score: num(item.score),
  }));
}

function parseResult(value: UnknownRecord): SearchResult {
  return {
    chunkId: str(value.chunkId),
    documentId: str(value.documentId),
    documentTitle: str(value.documentTitle, 'Untitled document'),
    headingPath: strings(value.headingPath),
    anchor: str(value.anchor),
    text: str(value.text),
    score: num(value.score),
    provenance: parseProvenance(value.provenance),
  };
}

export function parseSearchResponse(json: unknown): SearchResponse | null {
  if (!isRecord(json) || !Array.isArray(json.results)) return null;
  const timings: Record<string, number> = {};
  if (isRecord(json.timings)) {
    for (const [stage, ms] of Object.entries(json.timings)) {
      if (typeof ms === 'number' && Number.isFinite(ms)) timings[stage] = ms;
    }
  }
  return {
    results: json.results.filter(isRecord).map(parseResult),
    expansions: strings(json.expansions),
    hyde: typeof json.hyde === 'string' ? json.hyde : null,
    timings,
    warnings: strings(json.warnings),
    belowThreshold: json.belowThreshold === true,
  };
}
