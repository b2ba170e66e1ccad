import { z } from './contract/zod';
import { EVAL_RUN_STATUSES } from './question-banks';
import { RANKERS, searchSettingsSchema, settingsOverridesSchema } from './settings';

/**
 * Body of POST /question-banks/:id/ablation: overrides of DEFAULT_SETTINGS every combination shares (the
 * ranker, expansion, HyDE and rerank switches are each combination's own).
 */
export const startAblationRequestSchema = z.strictObject({
  settings: settingsOverridesSchema.optional().meta({
    description:
      'Overrides of DEFAULT_SETTINGS shared by every combination (topK, candidateK, minScore, documents, ' +
      'expansion count); the ranker, expansion, HyDE and rerank switches are each combination’s own.',
  }),
});
export type StartAblationRequest = z.infer<typeof startAblationRequestSchema>;

const timestamp = z.string().meta({ format: 'date-time' });
const enhancementMode = z.union([z.boolean(), z.literal('adaptive')]);

/** The four switches an ablation varies; every other setting is the request's own. */
export const ablationSwitchesSchema = z.object({
  ranker: z.enum(RANKERS),
  enableQueryExpansion: enhancementMode,
  enableHyDE: enhancementMode,
  enableRerank: z.boolean(),
});
export type AblationSwitches = z.infer<typeof ablationSwitchesSchema>;

export const ABLATION_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type AblationStatus = (typeof ABLATION_STATUSES)[number];

/** How expansion and HyDE are written in an ablation: by the LLM, or offline by pseudo-relevance feedback. */
export const ABLATION_GENERATORS = ['llm', 'prf'] as const;
export type AblationGenerator = (typeof ABLATION_GENERATORS)[number];

/** One combination's figures (null until its run completes, or when the run measured none). */
export const ablationFiguresSchema = z.object({
  'ndcg@10': z.number(),
  'mrr@10': z.number(),
  /** Answered in-scope items whose answer cites (and quotes) the gold source. */
  support: z.number().nullable(),
  /** In-scope items refused (false refusals). */
  inScopeRefused: z.number().nullable(),
  /** Out-of-scope items answered (false answers). */
  outOfScopeAnswered: z.number().nullable(),
  /** Median search latency over the bank's questions, milliseconds. */
  latencyP50Ms: z.number(),
  /** Calls to the chat model or rerank endpoint the searches made, over the whole bank. */
  llmCalls: z.number(),
});
export type AblationFigures = z.infer<typeof ablationFiguresSchema>;

export const ablationRowSchema = z.object({
  /** The combination's evaluation run (an ordinary run: its page and comparison work). */
  runId: z.string(),
  /** e.g. 'hybrid · expansion · HyDE · rerank'. */
  label: z.string(),
  switches: ablationSwitchesSchema,
  status: z.enum(EVAL_RUN_STATUSES),
  error: z.string().nullable(),
  figures: ablationFiguresSchema.nullable(),
});
export type AblationRow = z.infer<typeof ablationRowSchema>;

export const ablationSummarySchema = z.object({
  id: z.string(),
  bankId: z.string(),
  status: z.enum(ABLATION_STATUSES),
  /** Combinations whose run has finished (completed or failed). */
  finished: z.number(),
  total: z.number(),
  createdAt: timestamp,
  finishedAt: timestamp.nullable(),
});
export type AblationSummary = z.infer<typeof ablationSummarySchema>;

export const ablationSchema = ablationSummarySchema.extend({
  /** The settings every combination shares (the four switches are each row's own). */
  baseSettings: searchSettingsSchema,
  /** Who writes expansions and HyDE passages on this server. */
  generator: z.enum(ABLATION_GENERATORS),
  /** Whether a reranker is configured (else no combination reranks). */
  rerankAvailable: z.boolean(),
  rows: z.array(ablationRowSchema),
  /** The best completed row's run id (see bestRule); null until one completes. */
  bestRunId: z.string().nullable(),
  /** The rule that picked the best row, in words. */
  bestRule: z.string(),
  error: z.string().nullable(),
});
export type Ablation = z.infer<typeof ablationSchema>;

/** An enhancement an ablation switches on and off. */
export const ENHANCEMENTS = ['expansion', 'hyde', 'rerank'] as const;
export type Enhancement = (typeof ENHANCEMENTS)[number];

/**
 * An enhancement an ablation measured worse than off: for one ranker, the combination with only it on
 * against the ranker alone, by nDCG@10.
 */
export const enhancementMeasuredWorseSchema = z.object({
  enhancement: z.enum(ENHANCEMENTS),
  ranker: z.enum(RANKERS),
  /** nDCG@10 of the ranker alone, and its run. */
  off: z.number(),
  offRunId: z.string(),
  /** nDCG@10 with only this enhancement on, and its run. */
  on: z.number(),
  onRunId: z.string(),
});
export type EnhancementMeasuredWorse = z.infer<typeof enhancementMeasuredWorseSchema>;

/** Response item of GET /enhancement-warnings: a bank whose latest completed ablation measured some. */
export const bankEnhancementWarningsSchema = z.object({
  bankId: z.string(),
  bankName: z.string(),
  ablationId: z.string(),
  /** Who wrote expansions and HyDE passages in that ablation. */
  generator: z.enum(ABLATION_GENERATORS),
  finishedAt: timestamp.nullable(),
  worse: z.array(enhancementMeasuredWorseSchema),
});
export type BankEnhancementWarnings = z.infer<typeof bankEnhancementWarningsSchema>;

/** GET /enhancement-warnings: every bank with some (may be empty). */
export const enhancementWarningsSchema = z.array(bankEnhancementWarningsSchema);
