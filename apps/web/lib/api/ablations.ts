/** Ablations: run a bank once per combination of ranker, expansion, HyDE and rerank, and read the matrix. */
import type {
  Ablation,
  AblationRow,
  AblationSummary,
  BankEnhancementWarnings,
  EnhancementMeasuredWorse,
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

/** GET /enhancement-warnings: banks without an id or a list of figures, and malformed figures, dropped. */
export function parseEnhancementWarnings(json: unknown): BankEnhancementWarnings[] | null {
  if (!Array.isArray(json)) return null;
  return json.flatMap((bank): BankEnhancementWarnings[] => {
    if (!isRecord(bank) || typeof bank.bankId !== 'string' || !Array.isArray(bank.worse)) return [];
    const worse = bank.worse.filter(
      (item): item is EnhancementMeasuredWorse =>
        isRecord(item) &&
        typeof item.enhancement === 'string' &&
        typeof item.ranker === 'string' &&
        typeof item.on === 'number' &&
        typeof item.off === 'number',
    );
    return worse.length > 0
      ? [{ ...(bank as unknown as BankEnhancementWarnings), bankName: String(bank.bankName ?? ''), worse }]
      : [];
  });
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

    /** Where each bank's latest ablation measured an enhancement worse than off. */
    listEnhancementWarnings({ signal }: RequestOptions = {}): Promise<BankEnhancementWarnings[]> {
      return http.json(
        ops.listEnhancementWarnings,
        { signal },
        parseEnhancementWarnings,
        'expected the enhancement warnings',
      );
    },
  };
}
