/**
 * The answerability decision: taken after retrieval and before any model call, by a calibrated model
 * whose parameters were fitted on question banks with out-of-scope items. Recorded in every search
 * result and retrieval trace.
 */
export interface AnswerabilityVerdict {
  /** Version of the fitted model (recorded like a prompt version). */
  modelVersion: string;
  /** Calibrated probability that the documents answer the question (0–1). */
  score: number;
  /** The operating point: below it the question is refused. */
  threshold: number;
  answerable: boolean;
  /** The features the model weighed, by name. */
  features: Record<string, number>;
  /** Each feature's contribution to the log-odds (weight × standardised value). */
  contributions: Record<string, number>;
  /** The question's words as the index analysed them, rarest first: chunks holding each, and its idf. */
  terms: { term: string; df: number; idf: number }[];
}

/**
 * The adaptive-expansion decision: the original query is searched first, a fitted model reads how sure
 * its ranking looks, and where it is sure enough the adaptive branches (expansion, HyDE) are skipped with
 * their LLM calls. Recorded in every search result and retrieval trace that asked for an adaptive branch.
 */
export interface AdaptiveExpansionDecision {
  /** Version of the fitted expansion policy; null when none is configured (the branches then run). */
  policyVersion: string | null;
  /** P(the original query's best passage is relevant), as the policy's model reads it (0–1). */
  confidence: number | null;
  /** At or above it the adaptive branches are skipped. */
  threshold: number | null;
  /** The adaptive branches skipped (their LLM calls were not made). */
  skipped: ('expansion' | 'hyde')[];
  /** The adaptive branches that ran. */
  ran: ('expansion' | 'hyde')[];
  /** The features the model weighed, by name, and each one's contribution to the log-odds. */
  features: Record<string, number>;
  contributions: Record<string, number>;
  /**
   * Adaptive branches skipped whatever the confidence, because the bank's latest ablation measured them
   * worse than off for this ranker (present only when there are some).
   */
  measuredWorse?: ('expansion' | 'hyde')[];
}

/** A rate over items, with its 95% Wilson interval. */
export interface RateInterval {
  items: number;
  count: number;
  rate: number;
  low: number;
  high: number;
}

/**
 * What a person reads, measured offline and deterministically: false refusals, false answers, how well
 * the answerability score separates the two kinds of question, and whether answered in-scope questions
 * cite and quote their gold source.
 */
export interface AnswerMetrics {
  /** In-scope items refused (false refusals: lower is better). */
  inScopeRefused: RateInterval;
  /** Out-of-scope items answered (false answers: lower is better). */
  outOfScopeAnswered: RateInterval;
  /** Area under the ROC curve of the answerability score (in scope = positive); null without both kinds. */
  auc: number | null;
  /**
   * Answered in-scope items whose answer cites a gold source and, when the item has a gold quote, quotes
   * it. Only items with expected sources count.
   */
  support: RateInterval;
  /**
   * Citation precision: the answers' markers whose passage holds the text the marker closes, over all
   * markers written. Absent in runs measured before it was.
   */
  citationPrecision?: RateInterval;
  /** The answerability model that decided, and the answer generator that wrote. */
  modelVersion: string | null;
  generator: string | null;
}
