/** Ablations: run a bank once per combination of ranker, expansion, HyDE and rerank, and read the matrix. */
import { ablationSchema, ablationSummarySchema, enhancementWarningsSchema, pageOf } from '@lumina/shared';
import type {
  Ablation,
  AblationSummary,
  BankEnhancementWarnings,
  Page,
  PageQuery,
  SearchSettings,
  StartAblationRequest,
} from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import { parsedBy } from './read';
import { queryOf, type RequestOptions, type Transport } from './transport';

/** GET /ablations/:id: the matrix. */
const parseAblation = parsedBy(ablationSchema);
const ablationPage = parsedBy(pageOf(ablationSummarySchema));
/** GET /enhancement-warnings: the banks whose latest ablation measured an enhancement worse than off. */
const parseEnhancementWarnings = parsedBy(enhancementWarningsSchema);

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
        ablationPage,
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
