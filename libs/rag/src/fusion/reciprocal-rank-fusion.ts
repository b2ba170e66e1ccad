export interface RankedItem {
  id: string;
  score: number;
}

/** One retriever's result list, best first; an item's rank is its 1-based position. */
export interface RankedList {
  name: string;
  items: RankedItem[];
  /** Multiplier for this list's contributions; defaults to 1. 0 records provenance without affecting ranking. */
  weight?: number;
}

/** Where a fused item was found: which list, at which rank, with the score that list gave it. */
export interface Provenance {
  list: string;
  rank: number;
  score: number;
}

export interface FusedItem {
  id: string;
  score: number;
  /** One entry per input list containing the item, in input list order. */
  provenance: Provenance[];
}

export interface ReciprocalRankFusionOptions {
  /** Rank offset damping the influence of top ranks; defaults to RRF_K. */
  k?: number;
  /** Maximum number of fused items to return. */
  limit?: number;
  /**
   * Leave out items that only lists with weight 0 hold (they would all score 0, after every other item):
   * such a list then adds provenance to what the weighted lists found, never passages of its own. Ignored
   * when no list carries weight.
   */
  weightedOnly?: boolean;
}

/** The constant from Cormack, Clarke & Büttcher (2009). */
export const RRF_K = 60;

interface Accumulator {
  id: string;
  contributions: number[];
  provenance: Provenance[];
  /** Best rank among lists that contribute to the score. */
  bestRank: number;
}

function validate(lists: readonly RankedList[], k: number, limit: number | undefined): void {
  if (!Number.isFinite(k) || k < 0) throw new RangeError(`k must be a finite number >= 0, got ${k}`);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
    throw new RangeError(`limit must be an integer >= 0, got ${limit}`);
  }
  for (const list of lists) {
    const weight = list.weight ?? 1;
    if (!Number.isFinite(weight) || weight < 0) {
      throw new RangeError(`weight of list '${list.name}' must be a finite number >= 0, got ${weight}`);
    }
  }
}

function compareFused(a: Accumulator & { score: number }, b: Accumulator & { score: number }): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.bestRank !== b.bestRank) return a.bestRank - b.bestRank;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Reciprocal rank fusion: an id scores Σ weight / (k + rank) over the lists containing it, using only its first
 * (best) rank within each list. Results are ordered by fused score descending, then by best rank across the
 * lists that carry weight, then by id (code unit order), so the output is deterministic. Lists with weight 0
 * appear in provenance but neither add score nor break ties.
 */
export function reciprocalRankFusion(
  lists: readonly RankedList[],
  options: ReciprocalRankFusionOptions = {},
): FusedItem[] {
  const k = options.k ?? RRF_K;
  validate(lists, k, options.limit);
  return fuse(lists, (weight, rank) => weight / (k + rank), options);
}

/**
 * Convex combination of scores (Bruch, Gai & Ingber, 2023): an id scores Σ weight · (score − min) / (max −
 * min) over the lists containing it, each list's scores scaled to [0, 1] by its own lowest and highest
 * (all 1 when they are equal), using its first (best) entry in each list. Order, ties, weight-0 lists and
 * `weightedOnly` as in reciprocalRankFusion.
 */
export function convexScoreFusion(
  lists: readonly RankedList[],
  options: Omit<ReciprocalRankFusionOptions, 'k'> = {},
): FusedItem[] {
  validate(lists, 0, options.limit);
  const ranges = new Map(
    lists.map((list) => {
      const scores = list.items.map((item) => item.score);
      return [list, { min: Math.min(...scores), max: Math.max(...scores) }] as const;
    }),
  );
  return fuse(
    lists,
    (weight, _rank, item, list) => {
      const { min, max } = ranges.get(list)!;
      return max > min ? (weight * (item.score - min)) / (max - min) : weight;
    },
    options,
  );
}

/** What one list adds to an item's score: its weight (> 0), the item's 1-based rank, the item, the list. */
type Contribution = (weight: number, rank: number, item: RankedItem, list: RankedList) => number;

function fuse(
  lists: readonly RankedList[],
  contribution: Contribution,
  options: Omit<ReciprocalRankFusionOptions, 'k'>,
): FusedItem[] {
  const byId = new Map<string, Accumulator>();
  for (const list of lists) {
    const weight = list.weight ?? 1;
    const seen = new Set<string>();
    list.items.forEach((item, index) => {
      if (seen.has(item.id)) return;
      seen.add(item.id);
      const rank = index + 1;
      let entry = byId.get(item.id);
      if (!entry) {
        entry = { id: item.id, contributions: [], provenance: [], bestRank: Infinity };
        byId.set(item.id, entry);
      }
      entry.provenance.push({ list: list.name, rank, score: item.score });
      if (weight > 0) {
        entry.contributions.push(contribution(weight, rank, item, list));
        entry.bestRank = Math.min(entry.bestRank, rank);
      }
    });
  }

  const anyWeighted = lists.some((list) => (list.weight ?? 1) > 0);
  const entries = [...byId.values()].filter(
    (entry) => !options.weightedOnly || !anyWeighted || entry.contributions.length > 0,
  );
  const fused = entries.map((entry) => ({
    ...entry,
    // Summing in a fixed (ascending) order makes equal sets of contributions produce bit-identical scores.
    score: [...entry.contributions].sort((a, b) => a - b).reduce((sum, value) => sum + value, 0),
  }));
  fused.sort(compareFused);
  const limited = options.limit === undefined ? fused : fused.slice(0, options.limit);
  return limited.map(({ id, score, provenance }) => ({ id, score, provenance }));
}
