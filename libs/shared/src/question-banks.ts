import { answerabilityVerdictSchema, answerMetricsSchema } from './answerability';
import {
  filled,
  int,
  notBlank,
  oneOf,
  pageQuerySchema,
  queryBool,
  tagList,
  text,
  uuid,
  z,
} from './contract/zod';
import { searchSettingsSchema, settingsOverridesSchema } from './settings';

/** What a question template asks for; `out-of-scope` items are questions the documents cannot answer. */
export const QUESTION_TEMPLATE_KINDS = [
  'definition',
  'scenario',
  'procedure',
  'out-of-scope',
  'cross-lingual',
] as const;
export type QuestionTemplateKind = (typeof QUESTION_TEMPLATE_KINDS)[number];

/** Where a bank item came from (`feedback`: a rated answer's question, from the review queue). */
export const QUESTION_ITEM_SOURCES = ['manual', 'generated', 'imported', 'feedback'] as const;
export type QuestionItemSource = (typeof QUESTION_ITEM_SOURCES)[number];

/** How a generated item was written: by the LLM, or by the offline template generator. */
export const QUESTION_GENERATORS = ['template', 'llm'] as const;
export type QuestionGenerator = (typeof QUESTION_GENERATORS)[number];

export const QUESTION_DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
export type QuestionDifficulty = (typeof QUESTION_DIFFICULTIES)[number];

export const MAX_QUESTION_CHARS = 4000;
export const MAX_ITEMS_PER_BATCH = 500;
export const MAX_IMPORT_ROWS = 5000;
export const MAX_GENERATE_COUNT = 200;
export const IMPORT_FORMATS = ['beir', 'csv', 'json'] as const;
export const EXPORT_FORMATS = ['json', 'csv'] as const;

const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const languageTag = (message: string) => z.string({ error: message }).regex(LANGUAGE_TAG, { error: message });
const timestamp = z.string().meta({ format: 'date-time' });

/**
 * A passage that answers an item: a document (relevance judged per document), a chunk (judged per
 * passage), or both (a chunk and the document it belongs to). `grade` is the graded relevance (default 1;
 * 0 means judged not relevant).
 */
export const expectedSourceSchema = z
  .strictObject({
    documentId: filled('documentId', 300)
      .optional()
      .meta({ description: 'Document id, or the document external id (e.g. a BEIR corpus id)' }),
    chunkId: uuid('chunkId', 'a chunk id').optional(),
    grade: int('grade', -10, 10)
      .optional()
      .meta({ description: 'Graded relevance; 0 or less is judged not relevant (default 1)' }),
  })
  .check(
    z.refine((source) => source.documentId !== undefined || source.chunkId !== undefined, {
      error: 'an expected source needs a documentId or a chunkId',
    }),
  );
export type ExpectedSource = z.infer<typeof expectedSourceSchema>;

export const questionTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(QUESTION_TEMPLATE_KINDS),
  description: z.string().nullable(),
  /** Prompt used to write items from a passage: {{title}}, {{heading}}, {{passage}}, {{language}}. */
  promptTemplate: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type QuestionTemplate = z.infer<typeof questionTemplateSchema>;

/** POST /question-templates (all of it) and PATCH /question-templates/:id (any of it). */
export const questionTemplateInputSchema = z
  .strictObject({
    name: filled('name', 200),
    kind: oneOf('kind', QUESTION_TEMPLATE_KINDS),
    description: text('description', 2000).nullable().optional().meta({ description: 'null clears it' }),
    promptTemplate: filled('promptTemplate', 8000).meta({
      description:
        'Prompt for the LLM generator; placeholders {{title}}, {{heading}}, {{passage}}, {{language}}',
    }),
  })
  .meta({
    example: {
      name: 'Definitions',
      kind: 'definition',
      description: 'Questions that ask what a term means',
      promptTemplate:
        'Write one question that this passage from {{title}} answers, in {{language}}: {{passage}}',
    },
  });
export type QuestionTemplateInput = z.infer<typeof questionTemplateInputSchema>;
export const questionTemplatePatchSchema = questionTemplateInputSchema
  .partial()
  .meta({ example: { description: 'Questions that ask what a term means' } });

/** GET /question-banks: a page of banks, optionally by name words or template. */
export const listQuestionBanksQuerySchema = pageQuerySchema.extend({
  search: text('search', 200)
    .optional()
    .meta({ description: 'Words in the name or description (case-insensitive)' }),
  templateId: uuid('templateId', 'a template id').optional(),
  collectionId: uuid('collectionId', 'a collection id')
    .optional()
    .meta({ description: 'Only the banks of this collection' }),
});
export type ListQuestionBanksQuery = z.infer<typeof listQuestionBanksQuerySchema>;

/** Body of POST /question-banks (name required) and PATCH /question-banks/:id (any of it). */
export const questionBankInputSchema = z
  .strictObject({
    name: filled('name', 200),
    description: text('description', 2000).optional(),
    templateId: uuid('templateId', 'a template id')
      .nullable()
      .optional()
      .meta({ description: 'null detaches the bank from its template (PATCH)' }),
    tags: tagList().optional(),
    collectionId: uuid('collectionId', 'a collection id').optional().meta({
      description:
        'The collection the bank belongs to and is evaluated on (POST; absent: the "default" collection)',
    }),
  })
  .meta({
    example: {
      name: 'Runbook questions',
      description: 'Questions the database runbook answers',
      tags: ['runbook'],
    },
  });
export type QuestionBankInput = z.infer<typeof questionBankInputSchema>;
export const questionBankPatchSchema = questionBankInputSchema
  .omit({ collectionId: true })
  .partial()
  .meta({ example: { description: 'Questions the database runbook answers', tags: ['runbook'] } });

export const questionBankSchema = z.object({
  id: z.string(),
  /** The collection it belongs to: its evaluations, ablations and rerankers search that collection. */
  collectionId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  templateId: z.string().nullable(),
  tags: z.array(z.string()),
  itemCount: z.number(),
  /** In-scope items with at least one expected source: the questions a reranker can be fitted on. */
  judgedItemCount: z.number(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type QuestionBank = z.infer<typeof questionBankSchema>;

export const questionBankItemSchema = z.object({
  id: z.string(),
  bankId: z.string(),
  question: z.string(),
  expectedAnswer: z.string().nullable(),
  inScope: z.boolean(),
  expectedSources: z.array(
    z.object({
      documentId: z.string().optional(),
      chunkId: z.string().optional(),
      grade: z.number().optional(),
    }),
  ),
  language: z.string(),
  tags: z.array(z.string()),
  difficulty: z.enum(QUESTION_DIFFICULTIES).nullable(),
  source: z.enum(QUESTION_ITEM_SOURCES),
  /** Set on generated items. */
  generator: z.enum(QUESTION_GENERATORS).nullable(),
  /** Free-form provenance: the generator's style, prompt version, model, the BEIR query id, ... */
  metadata: z.record(z.string(), z.unknown()),
  /** The rating it was made from (source `feedback`); null for other items, and once that rating is deleted. */
  feedbackId: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type QuestionBankItem = z.infer<typeof questionBankItemSchema>;

/**
 * Body of POST /question-banks/:id/items (one item, or a batch `{ items }`) and PATCH
 * /question-banks/:id/items/:itemId (any of it).
 */
export const questionBankItemInputSchema = z
  .strictObject({
    question: notBlank('question', MAX_QUESTION_CHARS),
    /** null clears it (PATCH). */
    expectedAnswer: text('expectedAnswer', 20000).nullable().optional(),
    inScope: z
      .boolean({ error: 'inScope must be true or false' })
      .optional()
      .meta({ description: 'false: the documents cannot answer it (should refuse); default true' }),
    expectedSources: z
      .array(expectedSourceSchema, { error: 'expectedSources must be an array' })
      .max(200, { error: 'expectedSources must hold at most 200 sources' })
      .optional()
      .meta({ description: 'Documents (id or external id) and/or chunks that answer it; each must exist' }),
    language: languageTag('language must be a language tag like "en" or "pt-BR"')
      .optional()
      .meta({ description: 'Default en' }),
    tags: tagList().optional(),
    difficulty: oneOf('difficulty', QUESTION_DIFFICULTIES).nullable().optional(),
  })
  .meta({
    example: {
      question: 'How do I promote the standby replica?',
      expectedAnswer: 'Run pg_ctl promote on the standby',
      inScope: true,
      expectedSources: [],
      language: 'en',
      tags: ['failover'],
      difficulty: 'easy',
    },
  });
export type QuestionBankItemInput = z.infer<typeof questionBankItemInputSchema>;
export const questionBankItemPatchSchema = questionBankItemInputSchema
  .partial()
  .meta({ example: { difficulty: 'medium', tags: ['failover'] } });

/** The answer of POST /question-banks/:id/items given a batch `{ items }` (one item answers the item). */
export const createdQuestionBankItemsSchema = z.object({ items: z.array(questionBankItemSchema) });
export type CreatedQuestionBankItems = z.infer<typeof createdQuestionBankItemsSchema>;

/** GET /question-banks/:id/items: a page of the bank's items, optionally by tag or scope. */
export const listQuestionBankItemsQuerySchema = pageQuerySchema.extend({
  tag: text('tag', 100).optional().meta({ description: 'Only items with this tag' }),
  inScope: queryBool('inScope').optional(),
});
export type ListQuestionBankItemsQuery = z.infer<typeof listQuestionBankItemsQuerySchema>;

export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** GET /question-banks/:id/export?format=: the file (JSON by default), as an attachment. */
export const exportQuerySchema = z.strictObject({
  format: oneOf('format', EXPORT_FORMATS).optional().meta({ description: 'Default json' }),
});
export type ExportQuery = z.infer<typeof exportQuerySchema>;

export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/**
 * POST /question-banks/:id/import. `beir`: `queries` (queries.jsonl text) and `qrels` (qrels TSV text);
 * `csv`: `csv` (header row, see the export); `json`: `items` (objects shaped like POST items).
 */
export const importRequestSchema = z
  .strictObject({
    format: oneOf('format', IMPORT_FORMATS),
    queries: z.string().optional().meta({ description: 'beir: the queries.jsonl text' }),
    qrels: z.string().optional().meta({ description: 'beir: the qrels/<split>.tsv text' }),
    csv: z.string().optional().meta({ description: 'csv: the CSV text, with a header row' }),
    items: z
      .array(z.unknown())
      .optional()
      .meta({ description: 'json: the items (an `id` from an export matches the item it came from)' }),
    dataset: text('dataset', 200)
      .optional()
      .meta({ description: 'Resolve external document ids only among this dataset' }),
    dryRun: z
      .boolean({ error: 'dryRun must be true or false' })
      .optional()
      .meta({ description: 'Validate and report without writing' }),
    language: languageTag('language must be a language tag like "en"')
      .optional()
      .meta({ description: 'Language of rows that do not say (default en)' }),
  })
  .superRefine((body, context) => {
    const need = (ok: boolean, path: string, message: string) => {
      if (!ok) context.addIssue({ code: 'custom', path: [path], message });
    };
    if (body.format === 'beir') {
      need(
        typeof body.queries === 'string',
        'queries',
        'queries (the queries.jsonl text) is required for format beir',
      );
      need(typeof body.qrels === 'string', 'qrels', 'qrels (the qrels TSV text) is required for format beir');
    }
    if (body.format === 'csv')
      need(typeof body.csv === 'string', 'csv', 'csv (the CSV text) is required for format csv');
    if (body.format === 'json') {
      need(Array.isArray(body.items), 'items', 'items (an array) is required for format json');
      need(
        (body.items?.length ?? 0) <= MAX_IMPORT_ROWS,
        'items',
        `items must hold at most ${MAX_IMPORT_ROWS} rows`,
      );
    }
  })
  .meta({
    example: {
      format: 'json',
      items: [{ question: 'How do I promote the standby replica?', inScope: true }],
    },
  });
export type ImportRequest = z.infer<typeof importRequestSchema>;

export const importRejectionSchema = z.object({
  /** 1-based row (CSV data row, JSON array index + 1, BEIR queries.jsonl line). */
  row: z.number(),
  /** The row's own id where it has one (a BEIR query id). */
  id: z.string().optional(),
  reasons: z.array(z.string()),
});
export type ImportRejection = z.infer<typeof importRejectionSchema>;

export const importReportSchema = z.object({
  format: z.enum(IMPORT_FORMATS),
  dryRun: z.boolean(),
  rows: z.number(),
  /** Rows taken: added + updated + unchanged. */
  accepted: z.number(),
  /** Rows that matched no item of the bank and became new items. */
  added: z.number(),
  /** Rows that matched an item (by its id, or by its question, case and whitespace aside) and changed it. */
  updated: z.number(),
  /** Rows that matched an item whose fields already said the same. */
  unchanged: z.number(),
  rejected: z.array(importRejectionSchema),
  /** Rows left out on purpose, not errors (e.g. BEIR queries without judgments in the given qrels). */
  skipped: z.object({ count: z.number(), reason: z.string() }).nullable(),
  /** The items of the accepted rows in row order (added, updated or unchanged); empty on a dry run. */
  itemIds: z.array(z.string()),
});
export type ImportReport = z.infer<typeof importReportSchema>;

/** Body of POST /question-banks/:id/generate: write `count` items from passages of these documents. */
export const generateItemsRequestSchema = z.strictObject({
  templateId: uuid('templateId', 'a template id'),
  documentIds: z
    .array(uuid('documentIds', 'document ids'), { error: 'documentIds must be an array of document ids' })
    .min(1, { error: 'documentIds must name at least one document' })
    .max(1000, { error: 'documentIds must name at most 1000 documents' })
    .meta({ description: 'Documents whose passages are sampled' }),
  count: int('count', 1, MAX_GENERATE_COUNT),
});
export type GenerateItemsRequest = z.infer<typeof generateItemsRequestSchema>;

/** The answer of POST /question-banks/:id/generate: the queued job, and where to follow it. */
export const generationRequestedSchema = z.object({
  jobId: z.string(),
  generator: z.enum(QUESTION_GENERATORS),
  /** GET this path for the job's GenerationJobStatus. */
  statusUrl: z.string(),
});
export type GenerationRequested = z.infer<typeof generationRequestedSchema>;

export const generationOutcomeSchema = z.object({
  bankId: z.string(),
  generator: z.enum(QUESTION_GENERATORS),
  requested: z.number(),
  created: z.number(),
  itemIds: z.array(z.string()),
  /** Passages sampled (chunk ids), in the order they were drawn. */
  sampledChunkIds: z.array(z.string()),
  warnings: z.array(z.string()),
});
export type GenerationOutcome = z.infer<typeof generationOutcomeSchema>;

export const generationJobStatusSchema = z.object({
  jobId: z.string(),
  state: z.string(),
  progress: z.number(),
  result: generationOutcomeSchema.nullable(),
  failedReason: z.string().nullable(),
});
export type GenerationJobStatus = z.infer<typeof generationJobStatusSchema>;

/** Body of POST /question-banks/:id/evaluate. */
export const evaluateBankRequestSchema = z.strictObject({
  settings: settingsOverridesSchema
    .optional()
    .meta({ description: 'Overrides of DEFAULT_SETTINGS for every item (the web app sends them all)' }),
});
export type EvaluateBankRequest = z.infer<typeof evaluateBankRequestSchema>;

/** GET /eval-runs: a page of runs, newest first, optionally of one bank. */
export const listEvalRunsQuerySchema = pageQuerySchema.extend({
  bankId: uuid('bankId', 'a question bank id').optional(),
});
export type ListEvalRunsQuery = z.infer<typeof listEvalRunsQuerySchema>;

/** GET /eval-runs/compare?a=&b=: run b against run a. */
export const compareEvalRunsQuerySchema = z.strictObject({
  a: uuid('a', 'an evaluation run id').meta({ description: 'Run A (the baseline)' }),
  b: uuid('b', 'an evaluation run id').meta({ description: 'Run B (compared with A: B − A)' }),
});
export type CompareEvalRunsQuery = z.infer<typeof compareEvalRunsQuerySchema>;

export const EVAL_RUN_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type EvalRunStatus = (typeof EVAL_RUN_STATUSES)[number];

/** A metric's 95% interval: Wilson for hit rates, bootstrap otherwise. */
export const evalMetricIntervalSchema = z.object({
  low: z.number(),
  high: z.number(),
  method: z.enum(['wilson', 'bootstrap']),
});
export type EvalMetricInterval = z.infer<typeof evalMetricIntervalSchema>;

export const evalItemResultSchema = z.object({
  itemId: z.string(),
  question: z.string(),
  inScope: z.boolean(),
  /** 'document' or 'chunk': what the item's expected sources name; null when it has none. */
  level: z.enum(['document', 'chunk']).nullable(),
  /** Retrieved chunk ids, best first (up to topK). */
  retrievedChunkIds: z.array(z.string()),
  /** The ranking that was scored (document or chunk ids, deduplicated, up to 100). */
  ranking: z.array(z.string()),
  /** 1-based rank of the first relevant id in `ranking`, or null. */
  firstRelevantRank: z.number().nullable(),
  metrics: z.record(z.string(), z.number()),
  /** True when the question was refused: nothing retrieved, belowThreshold, or judged unanswerable. */
  refused: z.boolean(),
  /** The answerability decision (null when no model decided). */
  answerability: answerabilityVerdictSchema.nullable(),
  /** The answer a person would read (offline extractive or the model's); null when not written. */
  answer: z.string().nullable(),
  /** Answered in-scope items: the answer cites a gold source (and quotes the gold answer when set). */
  supported: z.boolean().nullable(),
  /**
   * The answer's markers checked against the passages they open (precise: the passage holds the quoted
   * text); null when no answer was written, absent in runs made before it was measured.
   */
  citationCheck: z
    .object({ markers: z.number(), precise: z.number(), imprecise: z.array(z.number()) })
    .nullable()
    .optional(),
  /** Why the item was not scored (no relevant expected source), when it was not. */
  skippedReason: z.string().nullable(),
  warnings: z.array(z.string()),
});
export type EvalItemResult = z.infer<typeof evalItemResultSchema>;

export const evalRunSummarySchema = z.object({
  id: z.string(),
  bankId: z.string(),
  status: z.enum(EVAL_RUN_STATUSES),
  settings: searchSettingsSchema,
  embeddingModel: z.string().nullable(),
  chatModel: z.string().nullable(),
  datasetHash: z.string().nullable(),
  itemCount: z.number(),
  metrics: z.record(z.string(), z.number()).nullable(),
  error: z.string().nullable(),
  createdAt: timestamp,
  startedAt: timestamp.nullable(),
  finishedAt: timestamp.nullable(),
});
export type EvalRunSummary = z.infer<typeof evalRunSummarySchema>;

const refusalRateSchema = z.object({
  items: z.number(),
  refused: z.number(),
  rate: z.number(),
  low: z.number(),
  high: z.number(),
});

export const refusalRatesSchema = z.object({
  /** Out-of-scope items the search refused (wanted), with a Wilson interval. */
  outOfScope: refusalRateSchema,
  /** In-scope items the search refused (unwanted). */
  inScope: refusalRateSchema,
});
export type RefusalRates = z.infer<typeof refusalRatesSchema>;

export const evalRunSchema = evalRunSummarySchema.extend({
  searchOptions: z.record(z.string(), z.unknown()),
  promptVersions: z.record(z.string(), z.string().nullable()),
  intervals: z.record(z.string(), evalMetricIntervalSchema).nullable(),
  refusal: refusalRatesSchema.nullable(),
  /** False refusals, false answers, AUC and answer support; null for runs made before they existed. */
  answers: answerMetricsSchema.nullable(),
  /** Items scored for retrieval (in scope with at least one relevant source). */
  scoredItems: z.number(),
  perItem: z.array(evalItemResultSchema),
  timings: z.record(z.string(), z.number()).nullable(),
  /** Calls to the chat model or rerank endpoint the searches made; null for runs made before they were counted. */
  llmCalls: z.number().nullable(),
  /** The ablation this run is one combination of, if any. */
  ablationId: z.string().nullable(),
});
export type EvalRun = z.infer<typeof evalRunSchema>;

export const evalMetricComparisonSchema = z.object({
  metric: z.string(),
  a: z.number(),
  b: z.number(),
  /** b − a */
  difference: z.number(),
  test: z.enum(['mcnemar-exact', 'paired-randomization']),
  pValue: z.number(),
  adjustedPValue: z.number(),
});
export type EvalMetricComparison = z.infer<typeof evalMetricComparisonSchema>;

export const evalFlipSchema = z.object({
  itemId: z.string(),
  question: z.string(),
});
export type EvalFlip = z.infer<typeof evalFlipSchema>;

const flipsSchema = z.object({ onlyA: z.array(evalFlipSchema), onlyB: z.array(evalFlipSchema) });

export const evalRunComparisonSchema = z.object({
  a: z.string(),
  b: z.string(),
  /** Items scored in both runs. */
  pairedItems: z.number(),
  comparisons: z.array(evalMetricComparisonSchema),
  /** Per hit metric: the items only A hit, and the items only B hit. */
  flips: z.record(z.string(), flipsSchema),
  /** Out-of-scope items refused in one run and not the other. */
  refusalFlips: flipsSchema,
  warnings: z.array(z.string()),
});
export type EvalRunComparison = z.infer<typeof evalRunComparisonSchema>;
