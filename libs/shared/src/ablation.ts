import type { EvalRunStatus } from './question-banks';
import { z } from './contract/zod';
import { settingsOverridesSchema } from './settings';
import type { EnhancementMode, Ranker, SearchSettings } from './settings';

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

/** The four switches an ablation varies; every other setting is the request's own. */
export interface AblationSwitches {
  ranker: Ranker;
  enableQueryExpansion: EnhancementMode;
  enableHyDE: EnhancementMode;
  enableRerank: boolean;
}

export type AblationStatus = 'queued' | 'running' | 'completed' | 'failed';

/** How expansion and HyDE are written in an ablation: by the LLM, or offline by pseudo-relevance feedback. */
export type AblationGenerator = 'llm' | 'prf';

/** One combination's figures (null until its run completes, or when the run measured none). */
export interface AblationFigures {
  'ndcg@10': number;
  'mrr@10': number;
  /** Answered in-scope items whose answer cites (and quotes) the gold source. */
  support: number | null;
  /** In-scope items refused (false refusals). */
  inScopeRefused: number | null;
  /** Out-of-scope items answered (false answers). */
  outOfScopeAnswered: number | null;
  /** Median search latency over the bank's questions, milliseconds. */
  latencyP50Ms: number;
  /** Calls to the chat model or rerank endpoint the searches made, over the whole bank. */
  llmCalls: number;
}

export interface AblationRow {
  /** The combination's evaluation run (an ordinary run: its page and comparison work). */
  runId: string;
  /** e.g. 'hybrid · expansion · HyDE · rerank'. */
  label: string;
  switches: AblationSwitches;
  status: EvalRunStatus;
  error: string | null;
  figures: AblationFigures | null;
}

export interface AblationSummary {
  id: string;
  bankId: string;
  status: AblationStatus;
  /** Combinations whose run has finished (completed or failed). */
  finished: number;
  total: number;
  createdAt: string;
  finishedAt: string | null;
}

export interface Ablation extends AblationSummary {
  /** The settings every combination shares (the four switches are each row's own). */
  baseSettings: SearchSettings;
  /** Who writes expansions and HyDE passages on this server. */
  generator: AblationGenerator;
  /** Whether a reranker is configured (else no combination reranks). */
  rerankAvailable: boolean;
  rows: AblationRow[];
  /** The best completed row's run id (see bestRule); null until one completes. */
  bestRunId: string | null;
  /** The rule that picked the best row, in words. */
  bestRule: string;
  error: string | null;
}

/** An enhancement an ablation switches on and off. */
export type Enhancement = 'expansion' | 'hyde' | 'rerank';

/**
 * An enhancement an ablation measured worse than off: for one ranker, the combination with only it on
 * against the ranker alone, by nDCG@10.
 */
export interface EnhancementMeasuredWorse {
  enhancement: Enhancement;
  ranker: Ranker;
  /** nDCG@10 of the ranker alone, and its run. */
  off: number;
  offRunId: string;
  /** nDCG@10 with only this enhancement on, and its run. */
  on: number;
  onRunId: string;
}

/** Response item of GET /enhancement-warnings: a bank whose latest completed ablation measured some. */
export interface BankEnhancementWarnings {
  bankId: string;
  bankName: string;
  ablationId: string;
  /** Who wrote expansions and HyDE passages in that ablation. */
  generator: AblationGenerator;
  finishedAt: string | null;
  worse: EnhancementMeasuredWorse[];
}
