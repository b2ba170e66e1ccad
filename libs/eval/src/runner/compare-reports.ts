import { holmAdjust } from '../stats/holm-adjust';
import { mcnemarExact } from '../stats/mcnemar-exact';
import { pairedRandomizationTest } from '../stats/paired-randomization-test';
import { REPORT_METRICS } from './retrieval-report';
import type { ReportMetric, RetrievalReport } from './retrieval-report';

export interface MetricComparison {
  metric: ReportMetric;
  a: number;
  b: number;
  /** b - a */
  difference: number;
  test: 'mcnemar-exact' | 'paired-randomization';
  pValue: number;
  /** Holm-adjusted over every metric compared. */
  adjustedPValue: number;
  /** For hit metrics: queries only A hit, only B hit. */
  flips?: { onlyA: number; onlyB: number };
}

export interface ReportComparison {
  queries: number;
  comparisons: MetricComparison[];
}

/** Paired comparison of two runs over the queries they share: McNemar for hits, randomisation otherwise. */
export function compareReports(a: RetrievalReport, b: RetrievalReport): ReportComparison {
  const byIdB = new Map(b.perQuery.map((q) => [q.queryId, q]));
  const shared = a.perQuery.filter((q) => byIdB.has(q.queryId));
  if (shared.length === 0) throw new Error('the two runs have no query in common');
  const raw = REPORT_METRICS.map((metric) => {
    const va = shared.map((q) => q.metrics[metric]);
    const vb = shared.map((q) => byIdB.get(q.queryId)!.metrics[metric]);
    const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
    if (metric.startsWith('hit@')) {
      const test = mcnemarExact(
        va.map((v) => v > 0),
        vb.map((v) => v > 0),
      );
      return {
        metric,
        a: mean(va),
        b: mean(vb),
        difference: mean(vb) - mean(va),
        test: 'mcnemar-exact' as const,
        pValue: test.pValue,
        flips: { onlyA: test.onlyA, onlyB: test.onlyB },
      };
    }
    const test = pairedRandomizationTest(va, vb);
    return {
      metric,
      a: mean(va),
      b: mean(vb),
      difference: test.meanDiff,
      test: 'paired-randomization' as const,
      pValue: test.pValue,
    };
  });
  const adjusted = holmAdjust(raw.map((r) => r.pValue));
  return { queries: shared.length, comparisons: raw.map((r, i) => ({ ...r, adjustedPValue: adjusted[i] })) };
}
