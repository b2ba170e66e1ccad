import { isRelevant, topK } from './cutoff';

/** Reciprocal rank (1-based) of the first relevant document within the top `k`, else 0. */
export function mrrAtK(ranking: readonly string[], relevant: ReadonlyMap<string, number>, k: number): number {
  const index = topK(ranking, k).findIndex((id) => isRelevant(relevant.get(id)));
  return index === -1 ? 0 : 1 / (index + 1);
}
