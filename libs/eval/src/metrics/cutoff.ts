import { dedupeRanking } from './dedupe-ranking';

/** Throws unless `k` is a positive integer. */
export function assertCutoff(k: number): void {
  if (!Number.isInteger(k) || k < 1) {
    throw new RangeError(`Rank cutoff k must be a positive integer, got ${k}`);
  }
}

/** The first `k` distinct ids of a ranking (repeats are dropped before cutting). */
export function topK(ranking: readonly string[], k: number): string[] {
  assertCutoff(k);
  return dedupeRanking(ranking).slice(0, k);
}

/** Graded relevance counts as relevant when strictly positive. */
export function isRelevant(grade: number | undefined): boolean {
  return grade !== undefined && grade > 0;
}

/** Number of documents with a positive grade. */
export function countRelevant(relevant: ReadonlyMap<string, number>): number {
  let count = 0;
  for (const grade of relevant.values()) {
    if (isRelevant(grade)) count++;
  }
  return count;
}
