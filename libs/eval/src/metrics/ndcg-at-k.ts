import { topK } from './cutoff';

/** trec_eval's default gain: the grade itself; grades <= 0 and unjudged documents give nothing. */
function gain(grade: number | undefined): number {
  return grade !== undefined && grade > 0 ? grade : 0;
}

/** Discounted cumulative gain of a list of grades, rank r (1-based) discounted by log2(r + 1). */
function dcg(grades: readonly number[]): number {
  let sum = 0;
  grades.forEach((grade, index) => {
    sum += gain(grade) / Math.log2(index + 2);
  });
  return sum;
}

/**
 * Normalised DCG at `k`, computed like trec_eval / pytrec_eval `ndcg_cut`: linear gains (gain = grade),
 * discount log2(rank + 1), and an ideal DCG built from every judged document with a positive grade,
 * sorted by grade descending and cut at `k`. Documents missing from `relevant` have gain 0.
 * Returns 0 when the query has no positively graded document.
 */
export function ndcgAtK(
  ranking: readonly string[],
  relevant: ReadonlyMap<string, number>,
  k: number,
): number {
  const top = topK(ranking, k);
  const ideal = [...relevant.values()]
    .filter((grade) => grade > 0)
    .sort((x, y) => y - x)
    .slice(0, k);
  const idealDcg = dcg(ideal);
  if (idealDcg === 0) return 0;
  return dcg(top.map((id) => relevant.get(id) ?? 0)) / idealDcg;
}
