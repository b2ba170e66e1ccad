/** Learned rerankers: fitted on a question bank as a background job, listed, switched on and off, deleted. */
import type {
  ActiveReranker,
  FitRerankerRequest,
  ListRerankersQuery,
  Page,
  RerankerFitStatus,
  RerankerMeasurement,
  RerankerModelSummary,
  RerankerSource,
} from '@lumina/shared';
import { RERANKER_LEARNERS } from '@lumina/shared';
import { httpError } from '../api-errors';
import { API_OPERATIONS } from '../api-operations';
import { isRecord, num, optNum, optStr, parsePage, str } from './read';
import type { ExportedFile } from './question-banks';
import { queryOf, type RequestOptions, type Transport } from './transport';

const STATUSES: readonly RerankerFitStatus[] = ['queued', 'fitting', 'ready', 'failed'];
const SOURCES: readonly RerankerSource[] = ['endpoint', 'llm', 'fitted', 'file'];

function parseMeasurement(value: unknown): RerankerMeasurement | null {
  if (!isRecord(value)) return null;
  const ndcgBefore = optNum(value.ndcgBefore);
  const ndcgAfter = optNum(value.ndcgAfter);
  if (ndcgBefore === null || ndcgAfter === null) return null;
  const configured = isRecord(value.configured) ? value.configured : null;
  return {
    folds: num(value.folds),
    queries: num(value.queries),
    groupedBySource: value.groupedBySource === true,
    ndcgBefore,
    ndcgAfter,
    p: num(value.p, 1),
    configured:
      configured && optNum(configured.ndcg) !== null
        ? {
            model: str(configured.model, 'configured reranker'),
            ndcg: num(configured.ndcg),
            p: num(configured.p, 1),
            calls: num(configured.calls),
          }
        : null,
    preferred: value.preferred === 'configured' ? 'configured' : 'learned',
  };
}

/**
 * GET /rerankers/:id (and every answer that returns a model): an id and a known status are required;
 * missing figures read as null, an unknown learner as the default, importance rows without a number are
 * left out.
 */
export function parseRerankerModel(json: unknown): RerankerModelSummary | null {
  if (!isRecord(json) || typeof json.id !== 'string') return null;
  const status = STATUSES.find((known) => known === json.status);
  if (!status) return null;
  const learner = RERANKER_LEARNERS.find((known) => known === json.learner) ?? 'linear';
  const training =
    isRecord(json.training) && optNum(json.training.queries) !== null
      ? { queries: num(json.training.queries), pairs: num(json.training.pairs) }
      : null;
  const importance = Array.isArray(json.importance)
    ? json.importance.flatMap((row) =>
        isRecord(row) && typeof row.feature === 'string' && optNum(row.value) !== null
          ? [{ feature: row.feature, value: num(row.value) }]
          : [],
      )
    : [];
  return {
    id: json.id,
    version: str(json.version, json.id),
    bankId: optStr(json.bankId),
    bankName: optStr(json.bankName),
    status,
    learner,
    candidateK: num(json.candidateK),
    active: json.active === true,
    activateWhenReady: json.activateWhenReady === true,
    error: optStr(json.error),
    note: optStr(json.note),
    measurement: parseMeasurement(json.measurement),
    training,
    importance,
    createdAt: str(json.createdAt),
    startedAt: optStr(json.startedAt),
    finishedAt: optStr(json.finishedAt),
  };
}

/** GET /rerankers/active: unknown sources read as null. */
export function parseActiveReranker(json: unknown): ActiveReranker | null {
  if (!isRecord(json)) return null;
  return {
    model: optStr(json.model),
    source: SOURCES.find((known) => known === json.source) ?? null,
    rerankerId: optStr(json.rerankerId),
  };
}

export function rerankersApi(http: Transport) {
  const ops = API_OPERATIONS;
  return {
    /** POST /question-banks/:id/rerankers: the queued fit (poll getReranker until ready or failed). */
    fitReranker(
      bankId: string,
      input: FitRerankerRequest = {},
      { signal }: RequestOptions = {},
    ): Promise<RerankerModelSummary> {
      return http.json(
        ops.fitReranker,
        { params: { id: bankId }, body: input, signal },
        parseRerankerModel,
        'expected the queued reranker',
      );
    },

    listRerankers(
      query: ListRerankersQuery = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<RerankerModelSummary>> {
      return http.json(
        ops.listRerankers,
        { query: queryOf(query), signal },
        (body) => parsePage(body, parseRerankerModel),
        'expected a page of rerankers',
      );
    },

    getActiveReranker({ signal }: RequestOptions = {}): Promise<ActiveReranker> {
      return http.json(
        ops.getActiveReranker,
        { signal },
        parseActiveReranker,
        'expected the active reranker',
      );
    },

    getReranker(id: string, { signal }: RequestOptions = {}): Promise<RerankerModelSummary> {
      return http.json(
        ops.getReranker,
        { params: { id }, signal },
        parseRerankerModel,
        'expected a reranker',
      );
    },

    /** GET /rerankers/:id/model: the fitted model's JSON as a file to save (what RERANK_MODEL_FILE reads). */
    async downloadRerankerModel(
      id: string,
      version: string,
      { signal }: RequestOptions = {},
    ): Promise<ExportedFile> {
      const operation = ops.getRerankerModel;
      const { status, ok, json: body, text } = await http.call(operation, { params: { id }, signal });
      if (!ok) throw httpError({ status, body, operation });
      return { text, filename: `ltr-${version}.json`, type: 'application/json' };
    },

    activateReranker(id: string, { signal }: RequestOptions = {}): Promise<RerankerModelSummary> {
      return http.json(
        ops.activateReranker,
        { params: { id }, signal },
        parseRerankerModel,
        'expected the reranker',
      );
    },

    deactivateReranker(id: string, { signal }: RequestOptions = {}): Promise<RerankerModelSummary> {
      return http.json(
        ops.deactivateReranker,
        { params: { id }, signal },
        parseRerankerModel,
        'expected the reranker',
      );
    },

    deleteReranker(id: string, { signal }: RequestOptions = {}): Promise<void> {
      return http.noContent(ops.deleteReranker, { params: { id }, signal });
    },
  };
}
