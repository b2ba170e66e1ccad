import type { ReportComparison } from './compare-reports';
import { REPORT_METRICS } from './retrieval-report';
import type { RetrievalReport } from './retrieval-report';

const f3 = (value: number) => value.toFixed(3);

/** A plain-text table of one run: each metric with its 95% interval. */
export function formatReport(report: RetrievalReport): string {
  const lines = [
    `dataset ${report.dataset} · split ${report.split} · ranker ${report.ranker} · ${report.queries} queries`,
    `settings ${JSON.stringify(report.settings)}`,
    '',
    'metric       value   95% interval',
    ...REPORT_METRICS.map((key) => {
      const interval = report.intervals[key];
      return `${key.padEnd(12)} ${f3(report.metrics[key])}   [${f3(interval.low)}, ${f3(interval.high)}] ${interval.method}`;
    }),
    '',
    'timings ' +
      Object.entries(report.timings)
        .map(([key, value]) => `${key}=${value}`)
        .join(' '),
  ];
  return lines.join('\n');
}

/** A plain-text table of a paired comparison (B minus A). */
export function formatComparison(comparison: ReportComparison, labelA: string, labelB: string): string {
  return [
    `A = ${labelA}`,
    `B = ${labelB}`,
    `${comparison.queries} paired queries; p-values Holm-adjusted over ${comparison.comparisons.length} metrics`,
    '',
    'metric           A       B    B−A      p     p(Holm)  test',
    ...comparison.comparisons.map(
      (c) =>
        `${c.metric.padEnd(12)} ${f3(c.a)}   ${f3(c.b)}  ${(c.difference >= 0 ? '+' : '') + f3(c.difference)}  ` +
        `${c.pValue.toFixed(4)}  ${c.adjustedPValue.toFixed(4)}  ${c.test}` +
        (c.flips ? ` (only A ${c.flips.onlyA}, only B ${c.flips.onlyB})` : ''),
    ),
  ].join('\n');
}
