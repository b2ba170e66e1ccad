import type { Ranker } from '@lumina/shared';
import type { AnswerabilityModel } from '../answerability/answerability-model';
import type { ExpansionPolicy } from '../expansion/expansion-policy';
/** Pipeline settings that are not per request: chosen per embedder by measurement, not by users. */
export interface SearchOptions {
  /**
   * RRF constant. With all-MiniLM-L6-v2 at dense weight 0.5, SciFact train nDCG@10 by k: 10 → 0.7168,
   * 20 → 0.7190, 30 → 0.7196, 60 → 0.7182, 90 → 0.7148 (30 against 60: p = 0.43), so Cormack's 60 stays.
   */
  rrfK: number;
  /**
   * How the lists are fused: reciprocal ranks (rrf, the default) or a convex combination of each list's
   * min-max scaled scores (convex), with the same weights.
   */
  fusion: 'rrf' | 'convex';
  /** How deep each ranker's list goes for hybrid fusion. */
  hybridDepth: number;
  /** Per-ranker weight in fusion; a weak local embedder gets a small dense weight. */
  weights: { lexical: number; dense: number };
  /**
   * The languages (ISO 639-1) the dense encoder was trained on; null: every language. A hybrid search of
   * a question detected in another language ranks by keywords alone (an English-only encoder's vectors
   * of German or Chinese text are noise that drags the keyword ranking down), and says so.
   */
  denseLanguages: readonly string[] | null;
  /** Deadline of every LLM call (expansion, HyDE, rerank). */
  llmTimeoutMs: number;
  /** Exact (sequential) dense scan instead of HNSW, for evaluation. */
  exactDense: boolean;
  /** Feedback documents used for offline expansion and HyDE. */
  feedbackDocuments: number;
  /** The fitted answerability model; null: no decision (every question is answered). */
  answerabilityModel: AnswerabilityModel | null;
  /**
   * Models fitted on one ranker's searches with this embedder, used instead of `answerabilityModel` when
   * the search ranks that way and reads vectors (a hybrid whose dense list has no weight ranks as BM25).
   */
  answerabilityModelsByRanker: Readonly<Partial<Record<Ranker, AnswerabilityModel>>>;
  /** Top passages whose words the answerability features read (and the adaptive decision). */
  answerabilityPassages: number;
  /** The fitted adaptive-expansion policy; null: adaptive branches always run (with a warning). */
  expansionPolicy: ExpansionPolicy | null;
  /**
   * Branches measured worse than off where this search is evaluated (a bank's latest ablation, for the
   * search's ranker): an adaptive one of them never runs, whatever the policy says.
   */
  measuredWorse: readonly ('expansion' | 'hyde')[];
  /**
   * The collections searched (resolved from the request and the caller's access); null: every
   * collection. Per request, unlike the rest: it scopes every read of the index.
   */
  collectionIds: readonly string[] | null;
}

export const DEFAULT_SEARCH_OPTIONS: Readonly<SearchOptions> = Object.freeze({
  rrfK: 60,
  fusion: 'rrf',
  hybridDepth: 100,
  weights: { lexical: 1, dense: 1 },
  denseLanguages: null,
  llmTimeoutMs: 15_000,
  exactDense: false,
  feedbackDocuments: 10,
  answerabilityModel: null,
  answerabilityModelsByRanker: {},
  answerabilityPassages: 3,
  expansionPolicy: null,
  measuredWorse: [],
  collectionIds: null,
});

/** The answerability model a search with `ranker` decides with under `opts`. */
export function answerabilityModelOf(opts: SearchOptions, ranker: Ranker): AnswerabilityModel | null {
  const readsVectors = ranker === 'dense' || (ranker === 'hybrid' && opts.weights.dense > 0);
  return (readsVectors ? opts.answerabilityModelsByRanker[ranker] : undefined) ?? opts.answerabilityModel;
}
