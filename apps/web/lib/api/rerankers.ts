/** Learned rerankers: fitted on a question bank as a background job, listed, switched on and off, deleted. */
import { activeRerankerSchema, pageOf, rerankerModelSummarySchema } from '@lumina/shared';
import type {
  ActiveReranker,
  FitRerankerRequest,
  ListRerankersQuery,
  Page,
  RerankerModelSummary,
} from '@lumina/shared';
import { httpError } from '../api-errors';
import { API_OPERATIONS } from '../api-operations';
import { parsedBy } from './read';
import type { ExportedFile } from './question-banks';
import { queryOf, type RequestOptions, type Transport } from './transport';

/** GET /rerankers/:id, and every answer that returns a model. */
export const parseRerankerModel = parsedBy(rerankerModelSummarySchema);
const rerankerPage = parsedBy(pageOf(rerankerModelSummarySchema));
/** GET /rerankers/active. */
export const parseActiveReranker = parsedBy(activeRerankerSchema);

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
        rerankerPage,
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
