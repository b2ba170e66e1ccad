/** GET /health, read tolerantly: a degraded server still answers (503) with its report. */
import type { ComponentStatus, HealthReport } from '@lumina/shared';
import { httpError, invalidResponseError } from '../api-errors';
import { API_OPERATIONS } from '../api-operations';
import { isRecord, str } from './read';
import type { RequestOptions, Transport } from './transport';

/** A dependency's status: the server says 'up' or 'down'; anything else is shown as it came. */
export type ServiceStatus = ComponentStatus | (string & {});

/** The server's language model (GET /health `llm`), with a status the status badge can show. */
export type LlmStatus = Pick<HealthReport['llm'], 'configured'> & {
  status: ServiceStatus;
  model?: NonNullable<HealthReport['llm']['model']>;
  /** Who writes the search's variants and HyDE passage; absent on servers that do not say. */
  search?: { source: 'endpoint' | 'local' | 'offline'; model: string | null };
  /** The server's in-process model, when LLM_PROVIDER=local asks for one. */
  local?: { model: string; state: 'ready' | 'missing'; reason?: string };
};

const SEARCH_SOURCES = ['endpoint', 'local', 'offline'] as const;

function parseSearch(value: unknown): LlmStatus['search'] {
  if (!isRecord(value)) return undefined;
  const source = SEARCH_SOURCES.find((candidate) => candidate === value.source);
  if (!source) return undefined;
  return { source, model: typeof value.model === 'string' ? value.model : null };
}

function parseLocal(value: unknown): LlmStatus['local'] {
  if (!isRecord(value) || typeof value.model !== 'string') return undefined;
  if (value.state !== 'ready' && value.state !== 'missing') return undefined;
  return {
    model: value.model,
    state: value.state,
    ...(typeof value.reason === 'string' ? { reason: value.reason } : {}),
  };
}

/**
 * GET /health as the status badge reads it: odd statuses are kept, a server that does not report its
 * LLM has no `llm`, and the other fields pass through as they came.
 */
export type HealthReportView = Record<string, unknown> & {
  status: HealthReport['status'] | (string & {});
  database: { status: ServiceStatus; driver?: string };
  redis: { status: ServiceStatus };
  /** Absent on servers that do not report their LLM. */
  llm?: LlmStatus;
};

function parseLlm(value: unknown): LlmStatus | undefined {
  if (!isRecord(value)) return undefined;
  const configured =
    typeof value.configured === 'boolean' ? value.configured : value.status !== 'not-configured';
  const search = parseSearch(value.search);
  const local = parseLocal(value.local);
  return {
    configured,
    status: str(value.status, configured ? 'unknown' : 'not-configured'),
    ...(typeof value.model === 'string' ? { model: value.model } : {}),
    ...(search ? { search } : {}),
    ...(local ? { local } : {}),
  };
}

export function parseHealth(json: unknown): HealthReportView | null {
  if (!isRecord(json) || typeof json.status !== 'string') return null;
  const database = isRecord(json.database) ? json.database : {};
  const redis = isRecord(json.redis) ? json.redis : {};
  const llm = parseLlm(json.llm);
  return {
    ...json,
    status: json.status,
    database: {
      status: str(database.status, 'unknown'),
      ...(typeof database.driver === 'string' ? { driver: database.driver } : {}),
    },
    redis: { status: str(redis.status, 'unknown') },
    ...(llm ? { llm } : { llm: undefined }),
  };
}

export function healthApi(http: Transport) {
  return {
    /** GET /health. A degraded server still answers (503) with its report. */
    async getHealth({ signal }: RequestOptions = {}): Promise<HealthReportView> {
      const operation = API_OPERATIONS.health;
      const { status, ok, json: body } = await http.call(operation, { signal });
      const report = parseHealth(body);
      if (report && (ok || status === 503)) return report;
      if (!ok) throw httpError({ status, body, operation });
      throw invalidResponseError(operation, status, 'expected { status, database, redis }');
    },
  };
}
