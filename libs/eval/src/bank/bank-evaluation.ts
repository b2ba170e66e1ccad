import { createHash } from 'node:crypto';
import { refusesBeforeWriting } from '@lumina/rag';
import type { SearchResult } from '@lumina/rag';
import type {
  AnswerMetrics,
  EvalItemResult,
  EvalMetricInterval,
  ExpectedSource,
  RefusalRates,
  SearchSettings,
} from '@lumina/shared';
import { answerMetrics, answerSupported } from '../answers/answer-metrics';
import { checkCitations } from '../answers/citation-precision';
import { dedupeRanking, documentRanking } from '../metrics/dedupe-ranking';
import { evaluateRun } from '../metrics/evaluate-run';
import { parseMetricKey } from '../metrics/metric-key';
import type { Qrels } from '../metrics/types';
import { metricInterval } from '../runner/retrieval-report';
import type { RetrievalReport } from '../runner/retrieval-report';
import { runRetrievalEval } from '../runner/run-retrieval-eval';
import { wilsonInterval } from '../stats/wilson-interval';

export interface EvaluableItem {
  id: string;
  question: string;
  inScope: boolean;
  expectedSources: ExpectedSource[];
  /** The gold answer (a verbatim quote of the source) that answer support checks for; null: sources only. */
  expectedAnswer?: string | null;
}

/** The answer a person would read for a search result, as the chat writes it (offline: deterministic). */
export interface WrittenAnswer {
  text: string;
  notFound: boolean;
  citations: { marker: number; chunkId: string; documentId: string }[];
  generator: string;
}

export interface BankEvaluationInput {
  bankId: string;
  items: EvaluableItem[];
  settings: SearchSettings;
  /** The app's search (searchKnowledge with the app's ports and options). */
  search: (question: string) => Promise<SearchResult>;
  /** Writes the answer from the search result; without it no answer figures are measured. */
  answer?: (question: string, result: SearchResult) => Promise<WrittenAnswer>;
  /** Expected documents / chunks that are not in the bank's collection any more (deleted, re-indexed with new chunk ids, or moved out). */
  missingIds?: ReadonlySet<string>;
  concurrency?: number;
  /** The model calls one search made (read from its trace); without it none are counted. */
  llmCalls?: (result: SearchResult) => number;
  onProgress?: (done: number, total: number) => void;
}

export interface BankEvaluation {
  report: RetrievalReport;
  metrics: Record<string, number>;
  intervals: Record<string, EvalMetricInterval>;
  refusal: RefusalRates;
  answers: AnswerMetrics | null;
  perItem: EvalItemResult[];
  scoredItems: number;
  datasetHash: string;
  timings: Record<string, number>;
  /** Model calls the searches made, over every item. */
  llmCalls: number;
}

/** What an item's expected sources are judged on: chunks when every source names one, else documents. */
export function relevanceLevel(sources: ExpectedSource[]): 'document' | 'chunk' | null {
  if (sources.length === 0) return null;
  return sources.every((source) => source.chunkId) ? 'chunk' : 'document';
}

/** The item's judgments: id (chunk or document, by level) → grade (default 1; the best when repeated). */
export function itemJudgments(sources: ExpectedSource[]): Map<string, number> {
  const level = relevanceLevel(sources);
  const judgments = new Map<string, number>();
  for (const source of sources) {
    const id = level === 'chunk' ? source.chunkId : source.documentId;
    if (!id) continue;
    const grade = source.grade ?? 1;
    judgments.set(id, Math.max(grade, judgments.get(id) ?? Number.NEGATIVE_INFINITY));
  }
  return judgments;
}

/**
 * sha256 of what is evaluated (question, scope, judged sources; in order), not of row ids. Hashing is not
 * I/O: node:crypto is the one Node module this lib needs for it, and the hex is what runs store.
 */
export function datasetHash(items: EvaluableItem[]): string {
  const canonical = items.map((item) => [
    item.question,
    item.inScope,
    [...itemJudgments(item.expectedSources)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  ]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/**
 * Runs every item of a bank through the app's search and scores the in-scope ones with the eval
 * command's own code (runRetrievalEval: the same metrics, means and intervals), judging documents or
 * chunks as the item's sources name them. Out-of-scope items measure refusals, decided as the chat
 * decides them: the search refuses (refusesBeforeWriting), or else the written answer says not found.
 */
export async function evaluateBankItems(input: BankEvaluationInput): Promise<BankEvaluation> {
  const started = performance.now();
  const qrels: Qrels = new Map();
  const levels = new Map<string, 'document' | 'chunk' | null>();
  for (const item of input.items) {
    const level = item.inScope ? relevanceLevel(item.expectedSources) : null;
    levels.set(item.id, level);
    if (level) qrels.set(item.id, itemJudgments(item.expectedSources));
  }
  const results = new Map<string, SearchResult>();
  const report = await runRetrievalEval({
    dataset: `question-bank:${input.bankId}`,
    split: 'bank',
    ranker: input.settings.ranker,
    settings: { ...input.settings },
    queries: input.items.map((item) => ({ id: item.id, text: item.question })),
    qrels,
    concurrency: input.concurrency ?? 2,
    onProgress: input.onProgress,
    search: async (query) => {
      const result = await input.search(query.text);
      results.set(query.id, result);
      return levels.get(query.id) === 'chunk'
        ? dedupeRanking(result.results.map((hit) => hit.chunkId))
        : documentRanking(result.results);
    },
  });

  const metrics: Record<string, number> = { ...report.metrics };
  const intervals: Record<string, EvalMetricInterval> = { ...report.intervals };
  // hit@k and recall@k at the run's own topK, scored and bounded the way runRetrievalEval does.
  const atTopK = [`hit@${input.settings.topK}`, `recall@${input.settings.topK}`];
  const scored = input.items.filter((item) => qrels.has(item.id));
  const extra = evaluateRun(
    scored.map((item) => ({
      queryId: item.id,
      ranking: rankingFor(results.get(item.id)!, levels.get(item.id)!),
    })),
    qrels,
    atTopK.map((key) => parseMetricKey(key)),
  );
  const extraByItem = new Map(extra.perQuery.map((q) => [q.queryId, q.metrics]));
  for (const key of atTopK) {
    metrics[key] = extra.means[key] ?? 0;
    intervals[key] = metricInterval(
      key,
      extra.perQuery.map((q) => q.metrics[key]),
    );
  }

  // The answers, for every item the search did not refuse (in order: deterministic).
  const written = new Map<string, WrittenAnswer>();
  if (input.answer) {
    for (const item of input.items) {
      const result = results.get(item.id)!;
      if (refusesBeforeWriting(result)) continue;
      written.set(item.id, await input.answer(item.question, result));
    }
  }

  const evaluated = new Map(report.perQuery.map((q) => [q.queryId, q]));
  const perItem: EvalItemResult[] = input.items.map((item) => {
    const result = results.get(item.id)!;
    const level = levels.get(item.id) ?? null;
    const scoredItem = evaluated.get(item.id);
    const answer = written.get(item.id) ?? null;
    const refused = refusesBeforeWriting(result) || answer?.notFound === true;
    const gold = new Set(itemJudgments(item.expectedSources).keys());
    const supported =
      item.inScope && !refused && answer && gold.size > 0
        ? answerSupported({
            citedChunkIds: answer.citations.map((c) => c.chunkId),
            citedDocumentIds: answer.citations.map((c) => c.documentId),
            goldIds: gold,
            answer: answer.text,
            goldQuote: item.expectedAnswer ?? null,
          })
        : null;
    const textOf = new Map(result.results.map((hit) => [hit.chunkId, hit.text]));
    const citationCheck =
      answer && !refused ? checkCitations(answer.text, answer.citations, (id) => textOf.get(id)) : null;
    const missing = [...itemJudgments(item.expectedSources).keys()].filter((id) => input.missingIds?.has(id));
    return {
      itemId: item.id,
      question: item.question,
      inScope: item.inScope,
      level,
      retrievedChunkIds: result.results.map((hit) => hit.chunkId),
      ranking: scoredItem?.ranking ?? rankingFor(result, level ?? 'document').slice(0, 100),
      firstRelevantRank: scoredItem?.firstRelevantRank ?? null,
      metrics: scoredItem ? { ...scoredItem.metrics, ...extraByItem.get(item.id) } : {},
      refused,
      answerability: result.answerability,
      answer: answer?.text ?? null,
      supported,
      citationCheck,
      skippedReason: !item.inScope
        ? 'out of scope: counted for refusals'
        : scoredItem
          ? null
          : 'no relevant expected source (a grade above 0)',
      warnings: [
        ...result.warnings,
        ...missing.map(
          (id) =>
            `expected source ${id} is no longer in the bank's collection (deleted, re-indexed or moved out)`,
        ),
      ],
    };
  });

  return {
    report,
    metrics,
    intervals,
    refusal: {
      outOfScope: refusalRate(perItem.filter((item) => !item.inScope)),
      inScope: refusalRate(perItem.filter((item) => item.inScope)),
    },
    answers: input.answer
      ? answerMetrics(
          perItem.map((item) => ({
            inScope: item.inScope,
            refused: item.refused,
            score: item.answerability?.score ?? null,
            supported: item.supported,
            citations: item.citationCheck,
          })),
          perItem.find((item) => item.answerability)?.answerability?.modelVersion ?? null,
          [...written.values()][0]?.generator ?? null,
        )
      : null,
    perItem,
    scoredItems: report.queries,
    datasetHash: datasetHash(input.items),
    timings: { ...report.timings, evaluationMs: Math.round((performance.now() - started) * 10) / 10 },
    llmCalls: input.llmCalls
      ? [...results.values()].reduce((sum, result) => sum + input.llmCalls!(result), 0)
      : 0,
  };
}

function rankingFor(result: SearchResult, level: 'document' | 'chunk'): string[] {
  return level === 'chunk'
    ? dedupeRanking(result.results.map((hit) => hit.chunkId))
    : documentRanking(result.results);
}

function refusalRate(items: EvalItemResult[]): RefusalRates['inScope'] {
  const refused = items.filter((item) => item.refused).length;
  const interval = wilsonInterval(refused, items.length);
  return {
    items: items.length,
    refused,
    rate: items.length ? refused / items.length : 0,
    low: interval.low,
    high: interval.high,
  };
}
