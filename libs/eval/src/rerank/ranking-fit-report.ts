import { isTreesModel } from '@lumina/rag';
import type { LearnedRankingModel } from '@lumina/rag';
import type { LtrCrossValidation } from './cross-validate-ltr';
import { signed4 } from '../stats/figures';
import { modelImportance } from './fit-ranking-model';

/**
 * The line a cross-validation prints: the folds, the samples' source and depth, the mean nDCG@10 in the
 * search's order and reranked, their difference and the paired test's p.
 */
export function formatCrossValidation(
  cv: LtrCrossValidation,
  samples: { source: string; candidateK: number },
  byDocument: boolean,
): string {
  return (
    `${cv.folds}-fold cross-validation${byDocument ? ' (queries sharing a relevant document kept together)' : ''} ` +
    `on ${samples.source}, ${cv.queries} queries, nDCG@10 over ${samples.candidateK} ` +
    `candidates: search order ${cv.meanBefore.toFixed(4)}, reranked ${cv.meanAfter.toFixed(4)} ` +
    `(${signed4(cv.meanAfter - cv.meanBefore)}, paired randomisation p = ${cv.p.toFixed(4)})`
  );
}

/** How a fit went: its queries and pairs, the time it took, its steps, and its loss (and nDCG@10). */
export function formatFitTraining(model: LearnedRankingModel, milliseconds: number): string {
  const { training } = model;
  const steps = isTreesModel(model) ? 'trees' : 'Newton steps';
  return (
    `fitted on ${training.queries} queries, ${training.pairs} pairs in ${milliseconds} ms ` +
    `(${training.iterations} ${steps}, converged: ${training.converged}); ` +
    `pairwise loss ${training.loss.initial} → ${training.loss.final}` +
    (training.coordinateAscent
      ? `; nDCG@10 on the fitting queries ${training.coordinateAscent.ndcgBefore} → ${training.coordinateAscent.ndcgAfter}`
      : '')
  );
}

/**
 * The model's importance table, most first: a linear model's weight (four decimals) or the trees' splits
 * of each feature.
 */
export function formatImportance(model: LearnedRankingModel): string[] {
  const linear = !isTreesModel(model);
  return modelImportance(model).map(
    (f) => `${f.feature.padEnd(28)} ${linear ? f.value.toFixed(4) : `${f.value} splits`}`,
  );
}
