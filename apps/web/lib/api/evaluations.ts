/** Evaluation runs: start one over a bank, list them, open one, and compare two. */
import type {
  AnswerMetrics,
  EvalItemResult,
  EvalRun,
  EvalRunComparison,
  EvalRunSummary,
  EvaluateBankRequest,
  ListEvalRunsQuery,
  Page,
  RateInterval,
  SearchSettings,
} from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import { asRecordWithId, isRecord, num, numbers, optNum, optStr, parsePage, str, strings } from './read';
import { parseAnswerability } from './search';
import { queryOf, type RequestOptions, type Transport } from './transport';

function parseRateInterval(value: unknown): RateInterval | null {
  if (!isRecord(value)) return null;
  const items = optNum(value.items);
  const rate = optNum(value.rate);
  if (items === null || rate === null) return null;
  return {
    items,
    count: num(value.count, Math.round(rate * items)),
    rate,
    low: num(value.low, rate),
    high: num(value.high, rate),
  };
}

const EMPTY_RATE: RateInterval = { items: 0, count: 0, rate: 0, low: 0, high: 0 };

/** An evaluation run's answer figures; null for runs made before they existed. */
export function parseAnswerMetrics(value: unknown): AnswerMetrics | null {
  if (!isRecord(value)) return null;
  const inScopeRefused = parseRateInterval(value.inScopeRefused);
  const outOfScopeAnswered = parseRateInterval(value.outOfScopeAnswered);
  if (!inScopeRefused && !outOfScopeAnswered) return null;
  return {
    inScopeRefused: inScopeRefused ?? EMPTY_RATE,
    outOfScopeAnswered: outOfScopeAnswered ?? EMPTY_RATE,
    auc: optNum(value.auc),
    support: parseRateInterval(value.support) ?? EMPTY_RATE,
    modelVersion: optStr(value.modelVersion),
    generator: optStr(value.generator),
  };
}

function parseEvalItem(value: unknown): EvalItemResult | null {
  if (!isRecord(value) || typeof value.itemId !== 'string') return null;
  const item = value as unknown as EvalItemResult;
  return {
    ...item,
    question: str(value.question),
    inScope: value.inScope !== false,
    ranking: strings(value.ranking),
    metrics: numbers(value.metrics),
    refused: value.refused === true,
    warnings: strings(value.warnings),
    answerability: parseAnswerability(value.answerability),
    answer: typeof value.answer === 'string' ? value.answer : null,
    supported: typeof value.supported === 'boolean' ? value.supported : null,
  };
}

/** GET /eval-runs/:id: the run with its items; the answer fields are read defensively. */
export function parseEvalRun(json: unknown): EvalRun | null {
  if (!isRecord(json) || typeof json.id !== 'string') return null;
  const run = json as unknown as EvalRun;
  return {
    ...run,
    perItem: Array.isArray(json.perItem)
      ? json.perItem.map(parseEvalItem).filter((item): item is EvalItemResult => item !== null)
      : [],
    answers: parseAnswerMetrics(json.answers),
  };
}

function parseComparison(body: unknown): EvalRunComparison | null {
  return isRecord(body) && Array.isArray(body.comparisons) ? (body as unknown as EvalRunComparison) : null;
}

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
        asRecordWithId<EvalRunSummary>,
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
        (body) => parsePage(body, asRecordWithId<EvalRunSummary>),
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
      return http.json(
        ops.compareEvalRuns,
        { query: { a, b }, signal },
        parseComparison,
        'expected a comparison',
      );
    },
  };
}
