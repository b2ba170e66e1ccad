import { operatingPoint, rocAuc } from '@lumina/rag';
import type { AnswerabilityModel, FeatureVector } from '@lumina/rag';
import type { AnswerMetrics, RateInterval } from '@lumina/shared';
import type { CitationCheck } from '../answers/citation-precision';

export interface AnswerabilityItemResult {
  id: string;
  question: string;
  inScope: boolean;
  refused: boolean;
  /** P(answerable), and the features it was computed from. */
  score: number | null;
  features: Record<string, number>;
  supported: boolean | null;
  answer: string | null;
  /** The answer's markers checked against their passages; null when not answered. */
  citations?: CitationCheck | null;
}

export interface AnswerabilitySourceRun {
  source: string;
  modelVersion: string;
  metrics: AnswerMetrics;
  /** Median milliseconds per question: search + decision, and the whole answer. */
  timings: { searchP50: number; answerP50: number };
  items: AnswerabilityItemResult[];
}

/** Bounds a source's answer figures must keep (the CI gate). */
export interface AnswerGate {
  source: string;
  maxInScopeRefused: number;
  maxOutOfScopeAnswered: number;
  minAuc: number;
  minSupport: number;
  /** Citation precision the answers must keep (1: every marker opens the passage holding its quote). */
  minCitationPrecision?: number;
}

/**
 * The items' features as fitting samples (the probe model records every feature). Questions the search
 * found nothing for have none: they are refused before any decision.
 */
export function samplesOf(run: AnswerabilitySourceRun) {
  return run.items
    .filter((item) => Object.keys(item.features).length > 0)
    .map((item) => ({
      features: item.features as FeatureVector,
      inScope: item.inScope,
      source: run.source,
    }));
}

/** The median of millisecond timings, to a tenth (0 for none). */
export function medianMs(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)] * 10) / 10;
}

export function gateFailures(
  runs: readonly AnswerabilitySourceRun[],
  gates: readonly AnswerGate[],
): string[] {
  return gates.flatMap((gate) => {
    const run = runs.find((r) => r.source === gate.source);
    if (!run) return [`${gate.source}: not measured`];
    const m = run.metrics;
    const out: string[] = [];
    if (m.inScopeRefused.rate > gate.maxInScopeRefused)
      out.push(`${gate.source}: in-scope refused ${m.inScopeRefused.rate} > ${gate.maxInScopeRefused}`);
    if (m.outOfScopeAnswered.rate > gate.maxOutOfScopeAnswered)
      out.push(
        `${gate.source}: out-of-scope answered ${m.outOfScopeAnswered.rate} > ${gate.maxOutOfScopeAnswered}`,
      );
    if ((m.auc ?? 0) < gate.minAuc) out.push(`${gate.source}: AUC ${m.auc} < ${gate.minAuc}`);
    if (m.support.rate < gate.minSupport)
      out.push(`${gate.source}: answer support ${m.support.rate} < ${gate.minSupport}`);
    if (gate.minCitationPrecision !== undefined) {
      const precision = m.citationPrecision;
      if (!precision || precision.items === 0) out.push(`${gate.source}: citation precision not measured`);
      else if (precision.rate < gate.minCitationPrecision)
        out.push(
          `${gate.source}: citation precision ${precision.rate} (${precision.count}/${precision.items}) < ` +
            `${gate.minCitationPrecision}`,
        );
    }
    return out;
  });
}

function rate(r: RateInterval): string {
  const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
  return `${pct(r.rate)} [${pct(r.low)}, ${pct(r.high)}] (${r.count}/${r.items})`;
}

export function formatAnswerabilityRun(run: AnswerabilitySourceRun): string {
  const m = run.metrics;
  const inScores = run.items.filter((i) => i.inScope && i.score !== null).map((i) => i.score!);
  const outScores = run.items.filter((i) => !i.inScope && i.score !== null).map((i) => i.score!);
  const curve = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    .map((t) => operatingPoint(inScores, outScores, t))
    .map(
      (p) =>
        `  ${p.threshold.toFixed(2)}  ${(p.inScopeRefused * 100).toFixed(1).padStart(5)}%  ${(p.outOfScopeAnswered * 100).toFixed(1).padStart(5)}%`,
    );
  return [
    `${run.source} — model ${run.modelVersion}`,
    `  in-scope refused      ${rate(m.inScopeRefused)}`,
    `  out-of-scope answered ${rate(m.outOfScopeAnswered)}`,
    `  AUC                   ${m.auc?.toFixed(3) ?? 'n/a'} (${rocAuc(inScores, outScores)?.toFixed(3) ?? 'n/a'})`,
    `  answer support        ${rate(m.support)}`,
    ...(m.citationPrecision ? [`  citation precision    ${rate(m.citationPrecision)} (markers)`] : []),
    `  p50 search+decision ${run.timings.searchP50} ms, whole answer ${run.timings.answerP50} ms`,
    '  trade-off (threshold, in-scope refused, out-of-scope answered):',
    ...curve,
  ].join('\n');
}

export function formatAnswerabilityModel(model: AnswerabilityModel): string {
  return [
    `model ${model.version}: ${model.fittedOn.inScope} in-scope and ${model.fittedOn.outOfScope} out-of-scope questions from ${model.fittedOn.sources.join(', ')}`,
    `  AUC on the fitting data ${model.fittedOn.auc}; threshold ${model.threshold} for ≤ ${model.operatingPoint.target * 100}% false refusals`,
    `  → in-scope refused ${(model.operatingPoint.inScopeRefused * 100).toFixed(1)}%, out-of-scope answered ${(model.operatingPoint.outOfScopeAnswered * 100).toFixed(1)}%`,
    '  weights (standardised features):',
    ...model.features.map((f, i) => `    ${f.padEnd(18)} ${model.weights[i].toFixed(3)}`),
    `    ${'bias'.padEnd(18)} ${model.bias.toFixed(3)}`,
  ].join('\n');
}
