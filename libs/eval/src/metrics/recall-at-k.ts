import { countRelevant, isRelevant, topK } from './cutoff';

/**
 * Share of the relevant documents (positive grade) found in the top `k`.
 * Returns 0 when the query has no relevant documents; evaluateRun skips such queries instead.
 */
export function recallAtK(
  ranking: readonly string[],
  relevant: ReadonlyMap<string, number>,
  k: number,
): number {
  const top = topK(ranking, k);
  const total = countRelevant(relevant);
  if (total === 0) return 0;
  const found = top.filter((id) => isRelevant(relevant.get(id))).length;
  return found / total;
}
