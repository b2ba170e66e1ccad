export { datasetHash, evaluateBankItems, itemJudgments, relevanceLevel } from './bank-evaluation';
export type { BankEvaluation, BankEvaluationInput, EvaluableItem, WrittenAnswer } from './bank-evaluation';
export { compareEvalRuns } from './compare-eval-runs';
export type { ComparableRun } from './compare-eval-runs';
export {
  CSV_COLUMNS,
  CSV_IGNORED_COLUMNS,
  CSV_IMPORT_COLUMNS,
  formatSources,
  parseBooleanCell,
  parseGradedRef,
  splitList,
} from './import/csv-columns';
export { IMPORTABLE_FIELDS, matchImportRows, questionKey } from './import/match-import-rows';
export type {
  ExistingItem,
  ImportableField,
  ImportableFields,
  IncomingRow,
  RowPlan,
} from './import/match-import-rows';
export { parseBeirQrels, parseBeirQueries } from './import/parse-beir-text';
export type { BeirQueryLine, ParsedBeirQueries, ParsedQrels } from './import/parse-beir-text';
export { CsvFormatError, csvField, inertCsvField, parseCsv, restoreInertCell } from './import/parse-csv';
export { LLM_GENERATOR_PROMPT_VERSION, generateLlmQuestion } from './generation/llm-question-generator';
export type { LlmQuestion } from './generation/llm-question-generator';
export { MIN_PASSAGE_WORDS, samplePassages } from './generation/sample-passages';
export type { PassageCandidate } from './generation/sample-passages';
export {
  TEMPLATE_GENERATOR_VERSION,
  generateTemplateQuestion,
} from './generation/template-question-generator';
export type { PassageForQuestion, TemplateQuestion } from './generation/template-question-generator';
