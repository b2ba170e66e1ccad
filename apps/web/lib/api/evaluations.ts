/** Evaluation runs: start one over a bank, list them, open one, and compare two. */
import { evalRunComparisonSchema, evalRunSchema, evalRunSummarySchema, pageOf } from '@lumina/shared';
import type {
  EvalRun,
  EvalRunComparison,
  EvalRunSummary,
  EvaluateBankRequest,
  ListEvalRunsQuery,
  Page,
  SearchSettings,
} from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import { parsedBy } from './read';
import { queryOf, type RequestOptions, type Transport } from './transport';

const runSummary = parsedBy(evalRunSummarySchema);
const runPage = parsedBy(pageOf(evalRunSummarySchema));
/** GET /eval-runs/:id: the run with its items. */
export const parseEvalRun = parsedBy(evalRunSchema);
const comparison = parsedBy(evalRunComparisonSchema);

export function evaluationsApi(http: Transport) {
  const ops = API_OPERATIONS;
  return {
    /** POST /question-banks/:id/evaluate with the fully merged settings: a queued run. */
    evaluateQuestionBank(
      id: string,
      settings: SearchSettings,
      { signal }: RequestOptions = {},
    ): Promise<EvalRunSummary> {
      const body: EvaluateBankRequest = { settings };
      return http.json(
        ops.evaluateQuestionBank,
        { params: { id }, body, signal },
        runSummary,
        'expected the evaluation run',
      );
    },

    listEvalRuns(
      query: ListEvalRunsQuery = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<EvalRunSummary>> {
      return http.json(
        ops.listEvalRuns,
        { query: queryOf(query), signal },
        runPage,
        'expected a page of runs',
      );
    },

    getEvalRun(id: string, { signal }: RequestOptions = {}): Promise<EvalRun> {
      return http.json(
        ops.getEvalRun,
        { params: { id }, signal },
        parseEvalRun,
        'expected an evaluation run',
      );
    },

    compareEvalRuns(a: string, b: string, { signal }: RequestOptions = {}): Promise<EvalRunComparison> {
      return http.json(ops.compareEvalRuns, { query: { a, b }, signal }, comparison, 'expected a comparison');
    },
  };
}
