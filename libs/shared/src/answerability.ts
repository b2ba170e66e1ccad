import { z } from './contract/zod';

const numberRecord = z.record(z.string(), z.number());

/**
 * The answerability decision: taken after retrieval and before any model call, by a calibrated model
 * whose parameters were fitted on question banks with out-of-scope items. Recorded in every search
 * result and retrieval trace.
 */
export const answerabilityVerdictSchema = z.object({
  /** Version of the fitted model (recorded like a prompt version). */
  modelVersion: z.string(),
  /** Calibrated probability that the documents answer the question (0–1). */
  score: z.number(),
  /** The operating point: below it the question is refused. */
  threshold: z.number(),
  answerable: z.boolean(),
  /** The features the model weighed, by name. */
  features: numberRecord,
  /** Each feature's contribution to the log-odds (weight × standardised value). */
  contributions: numberRecord,
  /** The question's words as the index analysed them, rarest first: chunks holding each, and its idf. */
  terms: z.array(z.object({ term: z.string(), df: z.number(), idf: z.number() })),
});
export type AnswerabilityVerdict = z.infer<typeof answerabilityVerdictSchema>;

/**
 * The adaptive-expansion decision: the original query is searched first, a fitted model reads how sure
 * its ranking looks, and where it is sure enough the adaptive branches (expansion, HyDE) are skipped with
 * their LLM calls. Recorded in every search result and retrieval trace that asked for an adaptive branch.
 */
const adaptiveBranches = z.array(z.enum(['expansion', 'hyde']));

export const adaptiveExpansionDecisionSchema = z.object({
  /** Version of the fitted expansion policy; null when none is configured (the branches then run). */
  policyVersion: z.string().nullable(),
  /** P(the original query's best passage is relevant), as the policy's model reads it (0–1). */
  confidence: z.number().nullable(),
  /** At or above it the adaptive branches are skipped. */
  threshold: z.number().nullable(),
  /** The adaptive branches skipped (their LLM calls were not made). */
  skipped: adaptiveBranches,
  /** The adaptive branches that ran. */
  ran: adaptiveBranches,
  /** The features the model weighed, by name, and each one's contribution to the log-odds. */
  features: numberRecord,
  contributions: numberRecord,
  /**
   * Adaptive branches skipped whatever the confidence, because the bank's latest ablation measured them
   * worse than off for this ranker (present only when there are some).
   */
  measuredWorse: adaptiveBranches.optional(),
});
export type AdaptiveExpansionDecision = z.infer<typeof adaptiveExpansionDecisionSchema>;

/** A rate over items, with its 95% Wilson interval. */
export const rateIntervalSchema = z.object({
  items: z.number(),
  count: z.number(),
  rate: z.number(),
  low: z.number(),
  high: z.number(),
});
export type RateInterval = z.infer<typeof rateIntervalSchema>;

/**
 * What a person reads, measured offline and deterministically: false refusals, false answers, how well
 * the answerability score separates the two kinds of question, and whether answered in-scope questions
 * cite and quote their gold source.
 */
export const answerMetricsSchema = z.object({
  /** In-scope items refused (false refusals: lower is better). */
  inScopeRefused: rateIntervalSchema,
  /** Out-of-scope items answered (false answers: lower is better). */
  outOfScopeAnswered: rateIntervalSchema,
  /** Area under the ROC curve of the answerability score (in scope = positive); null without both kinds. */
  auc: z.number().nullable(),
  /**
   * Answered in-scope items whose answer cites a gold source and, when the item has a gold quote, quotes
   * it. Only items with expected sources count.
   */
  support: rateIntervalSchema,
  /**
   * Citation precision: the answers' markers whose passage holds the text the marker closes, over all
   * markers written. Absent in runs measured before it was.
   */
  citationPrecision: rateIntervalSchema.optional(),
  /** The answerability model that decided, and the answer generator that wrote. */
  modelVersion: z.string().nullable(),
  generator: z.string().nullable(),
});
export type AnswerMetrics = z.infer<typeof answerMetricsSchema>;
