import { isRelevant, topK } from './cutoff';

/** 1 when any document with a positive grade appears in the top `k`, else 0. */
export function hitAtK(ranking: readonly string[], relevant: ReadonlyMap<string, number>, k: number): number {
  return topK(ranking, k).some((id) => isRelevant(relevant.get(id))) ? 1 : 0;
}
