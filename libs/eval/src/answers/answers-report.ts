import { holmAdjust } from '../stats/holm-adjust';
import { mcnemarExact } from '../stats/mcnemar-exact';
import { wilsonInterval } from '../stats/wilson-interval';
import type { JudgeVerdict } from './judge-prompt';

/**
 * The answers suite's rates. faithfulness and citationValidity are judged over the answered items
 * (not refused, complete); inScopeAnswered over in-scope items; outOfScopeRefused over out-of-scope
 * items; refusalCorrectness over all; citesRelevantDocument (from the qrels, no judge) over answered
 * in-scope items.
 */
export const ANSWER_METRICS = [
  'faithfulness',
  'citationValidity',
  'inScopeAnswered',
  'outOfScopeRefused',
  'refusalCorrectness',
  'citesRelevantDocument',
] as const;
export type AnswerMetric = (typeof ANSWER_METRICS)[number];

export interface AnswerItemResult {
  id: string;
  question: string;
  inScope: boolean;
  status: 'complete' | 'failed' | 'cancelled';
  answer: string;
  notFound: boolean;
  generator: string;
  /** Cited passages: marker, chunk id and the document's id in the dataset. */
  citations: { marker: number; chunkId: string; documentId: string }[];
  droppedMarkers: number[];
  uncited: boolean;
  /** In-scope answers: whether a cited passage belongs to a document the qrels judge relevant. */
  citesRelevantDocument: boolean | null;
  judge: JudgeVerdict | null;
  judgeError: string | null;
  error: string | null;
  timings: { answerMs: number; judgeMs: number };
}

export interface MetricSummary {
  successes: number;
  n: number;
  rate: number;
  /** Wilson 95% interval. */
  low: number;
  high: number;
}

/** The JSON the answers suite writes (`--json`) and compares (`--baseline`, `--compare`). */
export interface AnswersReport {
  suite: 'answers';
  dataset: string;
  split: string;
  /** 'llm' when a chat model wrote the answers, 'extractive' offline. */
  generator: 'llm' | 'extractive';
  answerModel: string | null;
  answerPromptVersion: string;
  judge: { model: string; promptVersion: string };
  settings: Record<string, unknown>;
  questions: { inScope: number; outOfScope: number };
  metrics: Record<AnswerMetric, MetricSummary>;
  counts: { failed: number; judgeErrors: number; withDroppedMarkers: number; uncited: number };
  timings: Record<string, number>;
  perQuestion: AnswerItemResult[];
}

/** Each metric's outcome for one item: true / false, or null when the metric does not apply to it. */
export function itemOutcomes(item: AnswerItemResult): Record<AnswerMetric, boolean | null> {
  const complete = item.status === 'complete';
  const answered = complete && !item.notFound;
  const refused = complete && item.notFound;
  return {
    faithfulness: answered && item.judge ? item.judge.faithful : null,
    citationValidity:
      answered && item.judge
        ? item.citations.length > 0 && item.droppedMarkers.length === 0 && item.judge.citationsValid
        : null,
    // A failed answer is neither a good answer nor a refusal.
    inScopeAnswered: item.inScope ? answered : null,
    outOfScopeRefused: item.inScope ? null : refused,
    refusalCorrectness: item.inScope ? answered : refused,
    citesRelevantDocument: item.inScope && answered ? item.citesRelevantDocument : null,
  };
}

export function summariseAnswers(items: readonly AnswerItemResult[]): Record<AnswerMetric, MetricSummary> {
  const outcomes = items.map(itemOutcomes);
  return Object.fromEntries(
    ANSWER_METRICS.map((metric) => {
      const values = outcomes.map((o) => o[metric]).filter((v): v is boolean => v !== null);
      const successes = values.filter(Boolean).length;
      const interval = wilsonInterval(successes, values.length);
      return [
        metric,
        { successes, n: values.length, rate: interval.estimate, low: interval.low, high: interval.high },
      ];
    }),
  ) as Record<AnswerMetric, MetricSummary>;
}

export class IncomparableReportsError extends Error {}

/** Reports are comparable only when graded by the same judge model with the same judge prompt. */
export function assertComparable(a: AnswersReport, b: AnswersReport): void {
  for (const report of [a, b]) {
    if (report.suite !== 'answers') {
      throw new IncomparableReportsError(`not an answers report (suite: ${String(report.suite)})`);
    }
  }
  if (a.judge.model !== b.judge.model || a.judge.promptVersion !== b.judge.promptVersion) {
    throw new IncomparableReportsError(
      `refusing to compare: the runs were judged differently (${a.judge.model} with ${a.judge.promptVersion} vs ` +
        `${b.judge.model} with ${b.judge.promptVersion}); re-run with the same --judge-model and judge prompt`,
    );
  }
}

export interface AnswerMetricComparison {
  metric: AnswerMetric;
  /** Items where the metric applies in both runs. */
  pairs: number;
  a: number;
  b: number;
  /** b − a */
  difference: number;
  onlyA: number;
  onlyB: number;
  pValue: number;
  adjustedPValue: number;
}

export interface AnswersComparison {
  pairedQuestions: number;
  comparisons: AnswerMetricComparison[];
}

/** Paired comparison (exact McNemar per metric, Holm-adjusted) over the questions both runs answered. */
export function compareAnswersReports(a: AnswersReport, b: AnswersReport): AnswersComparison {
  assertComparable(a, b);
  const byId = new Map(b.perQuestion.map((item) => [item.id, itemOutcomes(item)]));
  const shared = a.perQuestion.filter((item) => byId.has(item.id));
  if (shared.length === 0) throw new IncomparableReportsError('the two runs have no question in common');
  const raw = ANSWER_METRICS.map((metric) => {
    const va: boolean[] = [];
    const vb: boolean[] = [];
    for (const item of shared) {
      const x = itemOutcomes(item)[metric];
      const y = byId.get(item.id)![metric];
      if (x === null || y === null) continue;
      va.push(x);
      vb.push(y);
    }
    const test = mcnemarExact(va, vb);
    const rate = (values: boolean[]) => (values.length ? values.filter(Boolean).length / values.length : 0);
    return {
      metric,
      pairs: va.length,
      a: rate(va),
      b: rate(vb),
      difference: rate(vb) - rate(va),
      onlyA: test.onlyA,
      onlyB: test.onlyB,
      pValue: test.pValue,
    };
  });
  const adjusted = holmAdjust(raw.map((r) => r.pValue));
  return {
    pairedQuestions: shared.length,
    comparisons: raw.map((r, i) => ({ ...r, adjustedPValue: adjusted[i] })),
  };
}

const f3 = (value: number) => value.toFixed(3);

export function formatAnswersReport(report: AnswersReport): string {
  return [
    `dataset ${report.dataset} · split ${report.split} · ${report.questions.inScope} in-scope + ` +
      `${report.questions.outOfScope} out-of-scope questions`,
    `answers: ${report.generator}${report.answerModel ? ` (${report.answerModel})` : ''}, ${report.answerPromptVersion}` +
      ` · judge: ${report.judge.model}, ${report.judge.promptVersion}`,
    `settings ${JSON.stringify(report.settings)}`,
    '',
    'metric                 rate    n     95% interval (Wilson)',
    ...ANSWER_METRICS.map((metric) => {
      const m = report.metrics[metric];
      return `${metric.padEnd(22)} ${f3(m.rate)}  ${String(m.n).padStart(4)}   [${f3(m.low)}, ${f3(m.high)}]`;
    }),
    '',
    `failed answers ${report.counts.failed} · judge errors ${report.counts.judgeErrors} · answers with dropped ` +
      `markers ${report.counts.withDroppedMarkers} · uncited answers ${report.counts.uncited}`,
    'timings ' +
      Object.entries(report.timings)
        .map(([key, value]) => `${key}=${value}`)
        .join(' '),
  ].join('\n');
}

export function formatAnswersComparison(
  comparison: AnswersComparison,
  labelA: string,
  labelB: string,
): string {
  return [
    `A = ${labelA}`,
    `B = ${labelB}`,
    `${comparison.pairedQuestions} paired questions; exact McNemar, p-values Holm-adjusted over ` +
      `${comparison.comparisons.length} metrics`,
    '',
    'metric                    A       B    B−A    pairs  only A  only B     p   p(Holm)',
    ...comparison.comparisons.map(
      (c) =>
        `${c.metric.padEnd(22)} ${f3(c.a)}   ${f3(c.b)}  ${(c.difference >= 0 ? '+' : '') + f3(c.difference)}  ` +
        `${String(c.pairs).padStart(5)}  ${String(c.onlyA).padStart(6)}  ${String(c.onlyB).padStart(6)}  ` +
        `${c.pValue.toFixed(4)}  ${c.adjustedPValue.toFixed(4)}`,
    ),
  ].join('\n');
}
