import { featureColumns } from '@lumina/rag';
import type { LtrModel } from '@lumina/rag';
import { candidateNdcg } from './cross-validate-ltr';
import type { JudgedRankingSample } from './cross-validate-ltr';

export interface CoordinateAscentOptions {
  /** Passes over every feature; stops early when a pass gains less than `tolerance`. */
  rounds: number;
  /** Multiples of the largest weight tried as steps, each way. */
  steps: readonly number[];
  tolerance: number;
}

export const DEFAULT_COORDINATE_ASCENT: Readonly<CoordinateAscentOptions> = Object.freeze({
  rounds: 4,
  steps: [0.01, 0.03, 0.1, 0.3, 1],
  tolerance: 1e-5,
});

/**
 * Coordinate ascent on mean nDCG@10 (Metzler and Croft): starting from a fitted model (the pairwise
 * fit), move one weight at a time by the step that raises the fitting queries' nDCG@10 the most, pass
 * after pass. The metric itself, not a surrogate, on the fitting data only; deterministic.
 */
export function refineForNdcg(
  model: LtrModel,
  samples: readonly JudgedRankingSample[],
  options: CoordinateAscentOptions = DEFAULT_COORDINATE_ASCENT,
): { model: LtrModel; before: number; after: number; rounds: number } {
  const columns = featureColumns(model);
  // Standardised rows once; a query without a relevant judged document cannot move the mean.
  const judged = samples.filter((s) => Object.values(s.judged).some((g) => g > 0) && s.rows.length > 0);
  const rows = judged.map((s) =>
    s.rows.map((row) => columns.map((c, k) => (row[c] - model.mean[k]) / model.scale[k])),
  );
  const evaluate = (weights: readonly number[]) => {
    let sum = 0;
    judged.forEach((sample, q) => {
      const scores = rows[q].map((row) => row.reduce((acc, v, k) => acc + v * weights[k], 0));
      const order = scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
      sum += candidateNdcg(sample, order);
    });
    return judged.length ? sum / samples.length : 0;
  };
  let weights = [...model.weights];
  const before = evaluate(weights);
  let best = before;
  let rounds = 0;
  for (; rounds < options.rounds; rounds++) {
    const start = best;
    for (let k = 0; k < weights.length; k++) {
      const unit = Math.max(...weights.map(Math.abs), 1e-3);
      let bestWeights = weights;
      for (const step of options.steps) {
        for (const sign of [1, -1]) {
          const trial = weights.map((w, i) => (i === k ? w + sign * step * unit : w));
          const value = evaluate(trial);
          if (value > best + 1e-12) {
            best = value;
            bestWeights = trial;
          }
        }
      }
      weights = bestWeights;
    }
    if (best - start < options.tolerance) {
      rounds++;
      break;
    }
  }
  const round = (v: number) => Math.round(v * 1e8) / 1e8;
  return {
    model: {
      ...model,
      weights: weights.map(round),
      training: {
        ...model.training,
        objective: 'ranknet+ndcg@10',
        coordinateAscent: { rounds, ndcgBefore: round(before), ndcgAfter: round(best) },
      },
    },
    before,
    after: best,
    rounds,
  };
}
