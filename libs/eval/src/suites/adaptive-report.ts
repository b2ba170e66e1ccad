import type { ExpansionPolicy, ExpansionSample, FeatureVector, SearchResult } from '@lumina/rag';
import { pairedRandomizationTest, signed4 } from '../stats';

/** One arm of the adaptive-expansion comparison: every query searched with one enhancement mode. */
export interface ArmRun {
  name: string;
  ndcg: number[];
  results: SearchResult[];
  branchRuns: number;
  llmCalls: number;
  seconds: number;
}

/** The arms side by side: nDCG@10, branch runs, LLM calls and time. */
export function formatArms(runs: readonly ArmRun[], queries: number, branches: number): string {
  const lines = [
    `${queries} queries, ${branches} branch(es) each when on`,
    'arm                               nDCG@10  branch runs  LLM calls  seconds',
  ];
  for (const run of runs) {
    const mean = run.ndcg.reduce((sum, v) => sum + v, 0) / Math.max(run.ndcg.length, 1);
    lines.push(
      `${run.name.padEnd(32)}  ${mean.toFixed(4)}  ${String(run.branchRuns).padStart(11)}  ${String(run.llmCalls).padStart(9)}  ${run.seconds.toFixed(1).padStart(7)}`,
    );
  }
  return lines.join('\n');
}

/**
 * What a policy is fitted on, per query: the probe's features, whether the original query's best
 * passage is relevant, and nDCG@10 with the branches and without.
 */
export function expansionSamples(
  queryIds: readonly string[],
  never: ArmRun,
  always: ArmRun,
  qrels: ReadonlyMap<string, ReadonlyMap<string, number>>,
): ExpansionSample[] {
  return queryIds.map((id, i) => {
    const top = never.results[i].results[0];
    const doc = top ? (top.externalId ?? top.documentId) : null;
    return {
      features: always.results[i].adaptive!.features as FeatureVector,
      top1Relevant: doc !== null && (qrels.get(id)?.get(doc) ?? 0) > 0,
      ndcgWith: always.ndcg[i],
      ndcgWithout: never.ndcg[i],
    };
  });
}

/** A fitted policy: its confidence AUC, threshold and trade-off, then the curve it was chosen from. */
export function formatFittedPolicy(fitted: ExpansionPolicy, maxLoss: number): string {
  return [
    `\npolicy ${fitted.version}: confidence AUC ${fitted.fittedOn.auc?.toFixed(3)} (best passage relevant), ` +
      `threshold ${fitted.threshold} skips ${(fitted.tradeOff.skipped * 100).toFixed(1)}% at nDCG@10 ` +
      `${fitted.tradeOff.ndcgAdaptive.toFixed(4)} against always-on ${fitted.tradeOff.ndcgAlwaysOn.toFixed(4)} ` +
      `(never ${fitted.tradeOff.ndcgNever.toFixed(4)}; budget ${maxLoss})`,
    'threshold  skipped  nDCG@10',
    ...fitted.curve.map(
      (p) =>
        `${p.threshold.toFixed(4).padStart(9)}  ${(p.skipped * 100).toFixed(1).padStart(6)}%  ${p.ndcg.toFixed(4)}`,
    ),
  ].join('\n');
}

/** Adaptive against always-on: the branch runs and LLM calls saved, and the paired nDCG@10 difference. */
export function formatAdaptiveSavings(always: ArmRun, adaptive: ArmRun, queries: number): string {
  const skipped = adaptive.results.filter((r) => (r.adaptive?.skipped.length ?? 0) > 0).length;
  const test = pairedRandomizationTest(always.ndcg, adaptive.ndcg);
  return (
    `\nadaptive against always-on: ${((1 - adaptive.branchRuns / Math.max(always.branchRuns, 1)) * 100).toFixed(1)}% ` +
    `of branch runs saved (${skipped} of ${queries} queries skipped), ` +
    `${((1 - adaptive.llmCalls / Math.max(always.llmCalls, 1)) * 100).toFixed(1)}% of LLM calls saved; ` +
    `nDCG@10 ${signed4(test.meanDiff)} (paired randomisation p = ${test.pValue.toFixed(4)})`
  );
}
