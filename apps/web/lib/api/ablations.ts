/** Ablations: run a bank once per combination of ranker, expansion, HyDE and rerank, and read the matrix. */
import type {
  Ablation,
  AblationRow,
  AblationSummary,
  Page,
  PageQuery,
  SearchSettings,
  StartAblationRequest,
} from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import { asRecordWithId, isRecord, num, parsePage } from './read';
import { queryOf, type RequestOptions, type Transport } from './transport';

/** GET /ablations/:id: the matrix; rows without a run id or switches are dropped. */
export function parseAblation(json: unknown): Ablation | null {
  if (!isRecord(json) || typeof json.id !== 'string' || !Array.isArray(json.rows)) return null;
  const rows = json.rows.filter(
    (row): row is AblationRow => isRecord(row) && typeof row.runId === 'string' && isRecord(row.switches),
  );
  return {
    ...(json as unknown as Ablation),
    rows: rows.map((row) => ({ ...row, figures: isRecord(row.figures) ? row.figures : null })),
    bestRunId: typeof json.bestRunId === 'string' ? json.bestRunId : null,
    finished: num(json.finished, 0),
    total: num(json.total, rows.length),
  };
}

export function ablationsApi(http: Transport) {
  const ops = API_OPERATIONS;
  return {
    /** POST /question-banks/:id/ablation with the fully merged settings. */
    startAblation(id: string, settings: SearchSettings, { signal }: RequestOptions = {}): Promise<Ablation> {
      const body: StartAblationRequest = { settings };
      return http.json(
        ops.startAblation,
        { params: { id }, body, signal },
        parseAblation,
        'expected the ablation',
      );
    },

    listBankAblations(
      id: string,
      query: PageQuery = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<AblationSummary>> {
      return http.json(
        ops.listBankAblations,
        { params: { id }, query: queryOf(query), signal },
        (body) => parsePage(body, asRecordWithId<AblationSummary>),
        'expected a page of ablations',
      );
    },

    getAblation(id: string, { signal }: RequestOptions = {}): Promise<Ablation> {
      return http.json(ops.getAblation, { params: { id }, signal }, parseAblation, 'expected an ablation');
    },
  };
}
