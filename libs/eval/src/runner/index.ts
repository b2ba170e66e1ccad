export { REPORT_METRICS, metricInterval } from './retrieval-report';
export type { MetricInterval, ReportMetric, RetrievalReport } from './retrieval-report';
export { runRetrievalEval } from './run-retrieval-eval';
export type { EvalQuery, RetrievalEvalInput } from './run-retrieval-eval';
export { compareReports } from './compare-reports';
export type { MetricComparison, ReportComparison } from './compare-reports';
export { formatComparison, formatReport } from './format-report';
export { mapPool } from './map-pool';
export { formatLanguageCounts } from './language-counts';
