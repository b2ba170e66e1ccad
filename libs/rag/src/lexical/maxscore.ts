/**
 * MaxScore (Turtle & Flood, 1995) planning for an exact BM25 top-k: which query terms must be read in
 * full ("essential") and which may only be looked up for chunks that can still enter the top k.
 *
 * A term's contribution to a chunk's score is
 *   weight · (k1 + 1) · tf / (tf + k1·(1 − b + b·len/avgLength))
 *     = weight · (k1 + 1) / (1 + k1·(1 − b)/tf + k1·b·(len/tf)/avgLength)
 * with weight = qtf · idf > 0. It grows with tf and falls with len/tf, so the term's largest tf and its
 * smallest len/tf over all its postings (kept with the postings, see the term-bounds migration) bound it
 * from above for any N, average length, k1 ≥ 0 and b in [0, 1].
 */

/** A query term with its weight (qtf · idf) and the stored bound of its postings (null: none kept). */
export interface BoundedTerm {
  term: string;
  weight: number;
  df: number;
  maxTf: number | null;
  minLengthPerTf: number | null;
}

/**
 * Relative slack added to every bound: the scores are sums of floating-point terms computed in another
 * order than the bound, so a bound is made a little larger than any rounding could make a score.
 */
export const BOUND_SLACK = 1e-9;

/** The largest contribution `term` can make to any chunk's score (Infinity when no bound is kept). */
export function termUpperBound(term: BoundedTerm, k1: number, b: number, avgLength: number): number {
  if (term.maxTf === null || term.minLengthPerTf === null || !(avgLength > 0)) return Infinity;
  const saturation =
    (k1 + 1) / (1 + (k1 * (1 - b)) / term.maxTf + (k1 * b * term.minLengthPerTf) / avgLength);
  return term.weight * saturation * (1 + BOUND_SLACK);
}

export interface MaxScorePlan {
  /** Terms whose postings are read in full: a chunk in none of them cannot reach the threshold. */
  essential: BoundedTerm[];
  /** Terms looked up only for the chunks the essential terms found. */
  nonEssential: BoundedTerm[];
  /** The sum of the non-essential terms' bounds (< threshold). */
  nonEssentialBound: number;
}

/**
 * Splits the terms for a top-k whose k-th score is known to be at least `threshold`: the terms with the
 * smallest bounds are non-essential as long as their bounds sum to less than the threshold, because a
 * chunk holding only those terms scores less than the threshold and so can neither enter the top k nor
 * tie its k-th score. Every other term is essential.
 */
export function maxScorePlan(
  terms: readonly BoundedTerm[],
  threshold: number,
  k1: number,
  b: number,
  avgLength: number,
): MaxScorePlan {
  const bounded = terms
    .map((term) => ({ term, bound: termUpperBound(term, k1, b, avgLength) }))
    .sort((x, y) => x.bound - y.bound || (x.term.term < y.term.term ? -1 : 1));
  const nonEssential: BoundedTerm[] = [];
  let nonEssentialBound = 0;
  let i = 0;
  for (; i < bounded.length; i++) {
    const next = nonEssentialBound + bounded[i].bound;
    if (!(next < threshold)) break;
    nonEssentialBound = next;
    nonEssential.push(bounded[i].term);
  }
  return {
    essential: bounded.slice(i).map((entry) => entry.term),
    nonEssential,
    nonEssentialBound,
  };
}

/**
 * The most a chunk that lacks at least one of `terms` can score: the sum of every bound but the smallest.
 * When the k-th best score among the chunks holding every term is above it, no other chunk can enter the
 * top k nor tie its k-th score, so that top k is the whole corpus's (the intersection pass).
 */
export function missingOneTermBound(
  terms: readonly BoundedTerm[],
  k1: number,
  b: number,
  avgLength: number,
): number {
  const bounds = terms.map((term) => termUpperBound(term, k1, b, avgLength));
  const sum = bounds.reduce((total, bound) => total + bound, 0);
  return Number.isFinite(sum) ? sum - Math.min(...bounds) : Infinity;
}

/**
 * A tsquery (in PostgreSQL's input syntax) that matches the tsvectors holding every lexeme of `terms`:
 * each lexeme quoted, with its quotes and backslashes doubled, so it is matched as it is and never
 * analysed again, whatever punctuation it holds.
 */
export function everyTermQuery(terms: readonly string[]): string {
  return terms.map((term) => `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' & ');
}
