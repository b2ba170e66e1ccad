import type { LearnedRankingModel } from '@lumina/rag';
import { RERANKER_MIN_QUESTIONS } from '@lumina/shared';
import type { RerankerMeasurement } from '@lumina/shared';
import { itemJudgments, relevanceLevel } from '../bank/bank-evaluation';
import type { EvaluableItem } from '../bank/bank-evaluation';
import { round4 } from '../stats/figures';
import { pairedRandomizationTest } from '../stats/paired-randomization-test';
import { mean } from '../stats/validation';
import { candidateNdcg, sharedSourceGroups } from './cross-validate-ltr';
import type { JudgedRankingSample } from './cross-validate-ltr';
import { crossValidateFit, fitRankingModel } from './fit-ranking-model';
import type { RankingFitSpec } from './fit-ranking-model';

/** What the search's feature recorder kept of one question's candidates. */
export interface RecordedCandidates {
  chunkIds: string[];
  /** Each candidate's document id in the index. */
  documentIds: string[];
  rows: number[][];
}

/**
 * One bank item as a judged ranking sample: its candidates judged at the level its expected sources name
 * (passages when every source names a chunk, else documents, as a bank evaluation judges them). Null for
 * an out-of-scope item or one without expected sources.
 */
export function bankRankingSample(
  item: EvaluableItem,
  recorded: RecordedCandidates | undefined,
): JudgedRankingSample | null {
  const level = item.inScope ? relevanceLevel(item.expectedSources) : null;
  if (!level) return null;
  const judged = itemJudgments(item.expectedSources);
  const units = (level === 'chunk' ? recorded?.chunkIds : recorded?.documentIds) ?? [];
  return {
    queryId: item.id,
    rows: recorded?.rows ?? [],
    documents: units,
    relevance: units.map((unit) => Math.max(0, judged.get(unit) ?? 0)),
    judged: Object.fromEntries(judged),
  };
}

/** Questions whose expected source is among their candidates: the only ones a reranker can move. */
export function learnableSamples(samples: readonly JudgedRankingSample[]): JudgedRankingSample[] {
  return samples.filter((s) => s.relevance.some((r) => r > 0) && s.relevance.some((r) => r <= 0));
}

/** Fewest learnable questions a bank needs before a fit means anything. */
export const MIN_FIT_QUESTIONS = RERANKER_MIN_QUESTIONS;

export interface BankFit {
  model: LearnedRankingModel;
  /** The cross-validated figures (the configured reranker's comparison is added by `compareConfigured`). */
  measurement: RerankerMeasurement;
  /** Each measured question's held-out nDCG@10, in `samples` order. */
  heldOut: number[];
  /** The questions measured. */
  samples: JudgedRankingSample[];
}

/**
 * Fit a learned reranker on a bank and measure it honestly: k-fold cross-validation (k ≤ 5), with
 * questions that share an expected source kept in one fold whenever the bank has enough separate groups
 * (so a model cannot score by remembering a source), then the final model on every question.
 * Throws a sentence a person can act on when the bank is too small.
 */
export function fitOnBank(samples: readonly JudgedRankingSample[], spec: RankingFitSpec): BankFit {
  const learnable = learnableSamples(samples);
  if (learnable.length < MIN_FIT_QUESTIONS) {
    throw new RangeError(
      `only ${learnable.length} question(s) of the bank have an expected source among the search's candidates ` +
        `(and another candidate that is not one); fitting a reranker needs at least ${MIN_FIT_QUESTIONS}`,
    );
  }
  const folds = Math.min(5, learnable.length);
  const grouped = sharedSourceGroups(learnable).length >= folds;
  const cv = crossValidateFit(learnable, spec, folds, 1, grouped);
  return {
    model: fitRankingModel(learnable, spec),
    measurement: {
      folds,
      queries: learnable.length,
      groupedBySource: grouped,
      ndcgBefore: round4(cv.meanBefore),
      ndcgAfter: round4(cv.meanAfter),
      p: round4(cv.p),
      configured: null,
      preferred: 'learned',
    },
    heldOut: cv.after,
    samples: learnable,
  };
}

/**
 * The configured reranker's nDCG@10 on the same questions and candidates (`orders[i]`: its order of
 * sample i's candidates), against the learned model's held-out figures; the bank prefers whichever
 * scored higher.
 */
export function compareConfigured(
  fit: BankFit,
  configured: { model: string; orders: number[][]; calls: number },
): RerankerMeasurement {
  const scores = fit.samples.map((sample, i) => candidateNdcg(sample, configured.orders[i]));
  const ndcg = round4(mean(scores));
  const p = pairedRandomizationTest(fit.heldOut, scores).pValue;
  return {
    ...fit.measurement,
    configured: { model: configured.model, ndcg, p: round4(p), calls: configured.calls },
    preferred: fit.measurement.ndcgAfter > ndcg ? 'learned' : 'configured',
  };
}
