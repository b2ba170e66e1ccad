import type { AnswerMetrics, AnswerabilityVerdict } from './answerability';
import type { PageQuery } from './documents';
import type { SearchSettings } from './settings';

/** What a question template asks for; `out-of-scope` items are questions the documents cannot answer. */
export type QuestionTemplateKind = 'definition' | 'scenario' | 'procedure' | 'out-of-scope' | 'cross-lingual';

export const QUESTION_TEMPLATE_KINDS: readonly QuestionTemplateKind[] = [
  'definition',
  'scenario',
  'procedure',
  'out-of-scope',
  'cross-lingual',
];

/** Where a bank item came from. */
export type QuestionItemSource = 'manual' | 'generated' | 'imported';

export const QUESTION_ITEM_SOURCES: readonly QuestionItemSource[] = ['manual', 'generated', 'imported'];

/** How a generated item was written: by the LLM, or by the offline template generator. */
export type QuestionGenerator = 'template' | 'llm';

export type QuestionDifficulty = 'easy' | 'medium' | 'hard';

export const QUESTION_DIFFICULTIES: readonly QuestionDifficulty[] = ['easy', 'medium', 'hard'];

/**
 * A passage that answers an item: a document (relevance judged per document), a chunk (judged per
 * passage), or both (a chunk and the document it belongs to). `grade` is the graded relevance (default 1;
 * 0 means judged not relevant).
 */
export interface ExpectedSource {
  documentId?: string;
  chunkId?: string;
  grade?: number;
}

export interface QuestionTemplate {
  id: string;
  name: string;
  kind: QuestionTemplateKind;
  description: string | null;
  /** Prompt used to write items from a passage: {{title}}, {{heading}}, {{passage}}, {{language}}. */
  promptTemplate: string;
  createdAt: string;
  updatedAt: string;
}

/** POST /question-templates (all of it) and PATCH /question-templates/:id (any of it). */
export interface QuestionTemplateInput {
  name: string;
  kind: QuestionTemplateKind;
  /** null clears it (PATCH). */
  description?: string | null;
  promptTemplate: string;
}

/** GET /question-banks: a page of banks, optionally by name words or template. */
export interface ListQuestionBanksQuery extends PageQuery {
  /** Words of the bank's name. */
  search?: string;
  templateId?: string;
}

/** Body of POST /question-banks (name required) and PATCH /question-banks/:id (any of it). */
export interface QuestionBankInput {
  name: string;
  description?: string;
  /** null clears it (PATCH). */
  templateId?: string | null;
  tags?: string[];
}

export interface QuestionBank {
  id: string;
  name: string;
  description: string | null;
  templateId: string | null;
  tags: string[];
  itemCount: number;
  /** In-scope items with at least one expected source: the questions a reranker can be fitted on. */
  judgedItemCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface QuestionBankItem {
  id: string;
  bankId: string;
  question: string;
  expectedAnswer: string | null;
  inScope: boolean;
  expectedSources: ExpectedSource[];
  language: string;
  tags: string[];
  difficulty: QuestionDifficulty | null;
  source: QuestionItemSource;
  /** Set on generated items. */
  generator: QuestionGenerator | null;
  /** Free-form provenance: the generator's style, prompt version, model, the BEIR query id, ... */
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/**
 * Body of POST /question-banks/:id/items (one item, or a batch `{ items }`) and PATCH
 * /question-banks/:id/items/:itemId (any of it).
 */
export interface QuestionBankItemInput {
  question: string;
  /** null clears it (PATCH). */
  expectedAnswer?: string | null;
  /** Default true. */
  inScope?: boolean;
  expectedSources?: ExpectedSource[];
  /** A language tag like "en" (the default) or "pt-BR". */
  language?: string;
  tags?: string[];
  difficulty?: QuestionDifficulty | null;
}

/** The answer of POST /question-banks/:id/items given a batch `{ items }` (one item answers the item). */
export interface CreatedQuestionBankItems {
  items: QuestionBankItem[];
}

/** GET /question-banks/:id/items: a page of the bank's items, optionally by tag or scope. */
export interface ListQuestionBankItemsQuery extends PageQuery {
  tag?: string;
  inScope?: boolean;
}

export type ExportFormat = 'json' | 'csv';

/** GET /question-banks/:id/export?format=: the file (JSON by default), as an attachment. */
export interface ExportQuery {
  format?: ExportFormat;
}

export type ImportFormat = 'beir' | 'csv' | 'json';

/** POST /question-banks/:id/import. */
export interface ImportRequest {
  format: ImportFormat;
  /** beir: the queries.jsonl text. */
  queries?: string;
  /** beir: the qrels TSV text. */
  qrels?: string;
  /** csv: the CSV text with a header row (as the export writes it). */
  csv?: string;
  /** json: the items (as the export writes them; an `id` matches the item it was exported from). */
  items?: unknown[];
  /** Resolve external document ids only among this dataset. */
  dataset?: string;
  /** Report what would happen without writing. */
  dryRun?: boolean;
  /** Language of rows that do not say (default en). */
  language?: string;
}

export interface ImportRejection {
  /** 1-based row (CSV data row, JSON array index + 1, BEIR queries.jsonl line). */
  row: number;
  /** The row's own id where it has one (a BEIR query id). */
  id?: string;
  reasons: string[];
}

export interface ImportReport {
  format: ImportFormat;
  dryRun: boolean;
  rows: number;
  /** Rows taken: added + updated + unchanged. */
  accepted: number;
  /** Rows that matched no item of the bank and became new items. */
  added: number;
  /** Rows that matched an item (by its id, or by its question, case and whitespace aside) and changed it. */
  updated: number;
  /** Rows that matched an item whose fields already said the same. */
  unchanged: number;
  rejected: ImportRejection[];
  /** Rows left out on purpose, not errors (e.g. BEIR queries without judgments in the given qrels). */
  skipped: { count: number; reason: string } | null;
  /** The items of the accepted rows in row order (added, updated or unchanged); empty on a dry run. */
  itemIds: string[];
}

/** Body of POST /question-banks/:id/generate: write `count` items from passages of these documents. */
export interface GenerateItemsRequest {
  templateId: string;
  documentIds: string[];
  count: number;
}

/** The answer of POST /question-banks/:id/generate: the queued job, and where to follow it. */
export interface GenerationRequested {
  jobId: string;
  generator: QuestionGenerator;
  /** GET this path for the job's GenerationJobStatus. */
  statusUrl: string;
}

export interface GenerationJobStatus {
  jobId: string;
  state: string;
  progress: number;
  result: GenerationOutcome | null;
  failedReason: string | null;
}

export interface GenerationOutcome {
  bankId: string;
  generator: QuestionGenerator;
  requested: number;
  created: number;
  itemIds: string[];
  /** Passages sampled (chunk ids), in the order they were drawn. */
  sampledChunkIds: string[];
  warnings: string[];
}

/** Body of POST /question-banks/:id/evaluate. */
export interface EvaluateBankRequest {
  /** Overrides of DEFAULT_SETTINGS (the web app sends them all, merged). */
  settings?: Partial<SearchSettings>;
}

/** GET /eval-runs: a page of runs, newest first, optionally of one bank. */
export interface ListEvalRunsQuery extends PageQuery {
  bankId?: string;
}

/** GET /eval-runs/compare?a=&b=: run b against run a. */
export interface CompareEvalRunsQuery {
  a: string;
  b: string;
}

export type EvalRunStatus = 'queued' | 'running' | 'completed' | 'failed';

/** The retrieval metrics of a bank run: the eval command's report metrics plus hit/recall at the run's topK. */
export interface EvalMetricInterval {
  low: number;
  high: number;
  method: 'wilson' | 'bootstrap';
}

export interface EvalItemResult {
  itemId: string;
  question: string;
  inScope: boolean;
  /** 'document' or 'chunk': what the item's expected sources name; null when it has none. */
  level: 'document' | 'chunk' | null;
  /** Retrieved chunk ids, best first (up to topK). */
  retrievedChunkIds: string[];
  /** The ranking that was scored (document or chunk ids, deduplicated, up to 100). */
  ranking: string[];
  /** 1-based rank of the first relevant id in `ranking`, or null. */
  firstRelevantRank: number | null;
  metrics: Record<string, number>;
  /** True when the question was refused: nothing retrieved, belowThreshold, or judged unanswerable. */
  refused: boolean;
  /** The answerability decision (null when no model decided). */
  answerability: AnswerabilityVerdict | null;
  /** The answer a person would read (offline extractive or the model's); null when not written. */
  answer: string | null;
  /** Answered in-scope items: the answer cites a gold source (and quotes the gold answer when set). */
  supported: boolean | null;
  /**
   * The answer's markers checked against the passages they open (precise: the passage holds the quoted
   * text); null when no answer was written, absent in runs made before it was measured.
   */
  citationCheck?: { markers: number; precise: number; imprecise: number[] } | null;
  /** Why the item was not scored (no relevant expected source), when it was not. */
  skippedReason: string | null;
  warnings: string[];
}

export interface EvalRunSummary {
  id: string;
  bankId: string;
  status: EvalRunStatus;
  settings: SearchSettings;
  embeddingModel: string | null;
  chatModel: string | null;
  datasetHash: string | null;
  itemCount: number;
  metrics: Record<string, number> | null;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface RefusalRates {
  /** Out-of-scope items the search refused (wanted), with a Wilson interval. */
  outOfScope: { items: number; refused: number; rate: number; low: number; high: number };
  /** In-scope items the search refused (unwanted). */
  inScope: { items: number; refused: number; rate: number; low: number; high: number };
}

export interface EvalRun extends EvalRunSummary {
  searchOptions: Record<string, unknown>;
  promptVersions: Record<string, string | null>;
  intervals: Record<string, EvalMetricInterval> | null;
  refusal: RefusalRates | null;
  /** False refusals, false answers, AUC and answer support; null for runs made before they existed. */
  answers: AnswerMetrics | null;
  /** Items scored for retrieval (in scope with at least one relevant source). */
  scoredItems: number;
  perItem: EvalItemResult[];
  timings: Record<string, number> | null;
  /** Calls to the chat model or rerank endpoint the searches made; null for runs made before they were counted. */
  llmCalls: number | null;
  /** The ablation this run is one combination of, if any. */
  ablationId: string | null;
}

export interface EvalMetricComparison {
  metric: string;
  a: number;
  b: number;
  /** b − a */
  difference: number;
  test: 'mcnemar-exact' | 'paired-randomization';
  pValue: number;
  adjustedPValue: number;
}

export interface EvalFlip {
  itemId: string;
  question: string;
}

export interface EvalRunComparison {
  a: string;
  b: string;
  /** Items scored in both runs. */
  pairedItems: number;
  comparisons: EvalMetricComparison[];
  /** Per hit metric: the items only A hit, and the items only B hit. */
  flips: Record<string, { onlyA: EvalFlip[]; onlyB: EvalFlip[] }>;
  /** Out-of-scope items refused in one run and not the other. */
  refusalFlips: { onlyA: EvalFlip[]; onlyB: EvalFlip[] };
  warnings: string[];
}
