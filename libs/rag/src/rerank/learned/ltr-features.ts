import { idf } from '../../answerability/answerability-features';
import type { RerankCandidate } from '../reranker.port';
import type { RerankEvidence, RerankPassageEvidence, RerankQueryTerm } from './rerank-evidence';

/**
 * Every feature the learned reranker may weigh, per (query, candidate passage). All are computed from
 * what the index already holds (term statistics, positions, titles, heading paths, the branches' ranks),
 * so reranking calls no model and is exactly reproducible.
 */
export const LTR_FEATURES = [
  /** Okapi BM25 of the passage's indexed text (title, headings and text), every query term. */
  'bm25',
  /** bm25 over the best bm25 among the candidates (1 for the best). */
  'bm25Relative',
  /** BM25 of the document's title alone (corpus idf, saturated tf, no length normalisation). */
  'bm25Title',
  /** BM25 of the passage's heading path alone (as for the title). */
  'bm25Heading',
  /** Share of the query's idf mass (every query term; unseen terms weigh the most) in the passage. */
  'idfCoverage',
  /** Share of the query's idf mass in the title. */
  'idfCoverageTitle',
  /** The largest share of the query's idf mass held within any COVERAGE_WINDOW consecutive positions. */
  'windowCoverage',
  /** 1 when the passage lacks the query's rarest term that the corpus uses. */
  'missingSalient',
  /** BM25 of the passage with Lucene's defaults (k1 1.2, b 0.75): a stronger length normalisation. */
  'bm25Lucene',
  /** BM25 of the passage without length normalisation (k1 1.2, b 0). */
  'bm25NoLength',
  /** Share of the query's distinct terms the passage holds. */
  'termCoverage',
  /** Distinct query terms held over the shortest window holding them all (0 with fewer than two). */
  'spanDensity',
  /** Share of the query's neighbouring term pairs (in query order) found in that order, at most 3 apart. */
  'orderedPairs',
  /**
   * Cosine similarity of the query to the passage: from the evidence when the search embedded the query,
   * else its score in the original dense list (0 when neither).
   */
  'denseCosine',
  /** 1 / rank in the original query's BM25 list (0 when not there). */
  'lexicalReciprocalRank',
  /** 1 / rank in the original query's dense list (0 when not there). */
  'denseReciprocalRank',
  /** ln(rank in the fused list). */
  'fusedLogRank',
  /** The best bm25Relative among the candidates of the same document. */
  'documentBest',
  /** The second best bm25Relative among the candidates of the same document (0 when alone). */
  'documentSecond',
  /** 1 when the passage is its document's best candidate by bm25. */
  'documentBestPassage',
  /** ln(candidates of the same document). */
  'documentPassages',
  /** ln(1 + indexed length). */
  'logLength',
  /** Indexed length over the corpus's average. */
  'lengthRatio',
  /** denseCosine minus the best denseCosine among the candidates (0 without cosines). */
  'denseMargin',
  /** 1 / rank among the candidates by denseCosine (0 without cosines). */
  'denseCandidateReciprocalRank',
  /** The best denseCosine among the candidates of the same document. */
  'documentBestCosine',
  /** Query likelihood with Dirichlet smoothing (mu: the corpus's average length; df stands in for cf). */
  'queryLikelihood',
  /** 1 when the passage is its document's first. */
  'firstPassage',
] as const;

/** The features that read the query's vector: a model weighing one of them needs the query embedded. */
export const DENSE_LTR_FEATURES: readonly LtrFeature[] = [
  'denseCosine',
  'denseMargin',
  'denseCandidateReciprocalRank',
  'documentBestCosine',
];

export type LtrFeature = (typeof LTR_FEATURES)[number];

/** Positions a window of `windowCoverage` spans (about a sentence). */
export const COVERAGE_WINDOW = 16;

/** Largest distance between two query terms that still counts as a pair in query order. */
export const ORDERED_PAIR_WINDOW = 3;

/** One row per candidate, columns in LTR_FEATURES order. Pure: the same input gives the same rows. */
export function ltrFeatureRows(candidates: readonly RerankCandidate[], evidence: RerankEvidence): number[][] {
  if (evidence.passages.length !== candidates.length) {
    throw new RangeError(
      `term evidence covers ${evidence.passages.length} passages of ${candidates.length} candidates`,
    );
  }
  const { k1, b } = evidence.bm25;
  const n = evidence.corpus.chunks;
  const avgLength = evidence.corpus.avgLength > 0 ? evidence.corpus.avgLength : 1;
  const terms = evidence.terms.map((t) => ({ ...t, idf: idf(t.df, n) }));
  // BM25 scores only terms the corpus uses (df > 0), as the SQL does.
  const scored = terms.filter((t) => t.df > 0);
  const mass = terms.reduce((sum, t) => sum + t.qtf * t.idf, 0);
  const inOrder = [...terms].sort((x, y) => x.position - y.position || (x.term < y.term ? -1 : 1));

  const bm25With = (passage: RerankPassageEvidence, k: number, lengthWeight: number) =>
    scored.reduce((sum, t) => {
      const tf = passage.positions[t.term]?.length ?? 0;
      if (tf === 0) return sum;
      const norm = k * (1 - lengthWeight + (lengthWeight * passage.length) / avgLength);
      return sum + (t.qtf * t.idf * tf * (k + 1)) / (tf + norm);
    }, 0);
  const bm25Of = (passage: RerankPassageEvidence) => bm25With(passage, k1, b);
  const salient = [...scored].sort((x, y) => y.idf - x.idf || (x.term < y.term ? -1 : 1))[0];
  const weightOf = new Map(terms.map((t) => [t.term, mass > 0 ? (t.qtf * t.idf) / mass : 0]));
  const fieldBm25 = (tfs: Record<string, number>) =>
    scored.reduce((sum, t) => {
      const tf = tfs[t.term] ?? 0;
      return tf === 0 ? sum : sum + (t.qtf * t.idf * tf * (k1 + 1)) / (tf + k1);
    }, 0);
  const coverage = (holds: (term: string) => boolean) =>
    mass > 0 ? terms.reduce((sum, t) => sum + (holds(t.term) ? t.qtf * t.idf : 0), 0) / mass : 0;

  const bm25 = evidence.passages.map(bm25Of);
  const best = Math.max(0, ...bm25);
  const relative = bm25.map((score) => (best > 0 ? score / best : 0));
  const byDocument = new Map<string, number[]>();
  candidates.forEach((candidate, i) => {
    const list = byDocument.get(candidate.documentId) ?? [];
    list.push(relative[i]);
    byDocument.set(candidate.documentId, list);
  });
  for (const list of byDocument.values()) list.sort((x, y) => y - x);

  const cosines = candidates.map(
    (candidate, i) => evidence.passages[i].cosine ?? branch(candidate, 'original:dense')?.score ?? null,
  );
  const known = cosines.filter((c): c is number => c !== null);
  const bestCosine = known.length ? Math.max(...known) : 0;
  const cosineRank = (c: number | null) => (c === null ? 0 : 1 / (1 + known.filter((k) => k > c).length));
  const documentCosine = new Map<string, number>();
  candidates.forEach((candidate, i) => {
    const cosine = cosines[i];
    if (cosine === null) return;
    documentCosine.set(
      candidate.documentId,
      Math.max(documentCosine.get(candidate.documentId) ?? -1, cosine),
    );
  });
  // Dirichlet-smoothed query likelihood; the collection's token count is chunks × average length.
  const mu = avgLength;
  const collection = Math.max(1, n * avgLength);
  const queryLength = terms.reduce((sum, t) => sum + t.qtf, 0);
  const likelihood = (passage: RerankPassageEvidence) =>
    scored.reduce((sum, t) => {
      const tf = passage.positions[t.term]?.length ?? 0;
      return tf === 0 ? sum : sum + t.qtf * Math.log(1 + tf / ((mu * t.df) / collection));
    }, 0) +
    queryLength * Math.log(mu / (passage.length + mu));

  return candidates.map((candidate, i) => {
    const passage = evidence.passages[i];
    const holds = (term: string) => (passage.positions[term]?.length ?? 0) > 0;
    const documentScores = byDocument.get(candidate.documentId)!;
    const values: Record<LtrFeature, number> = {
      bm25: bm25[i],
      bm25Relative: relative[i],
      bm25Title: fieldBm25(passage.titleTf),
      bm25Heading: fieldBm25(passage.headingTf),
      idfCoverage: coverage(holds),
      idfCoverageTitle: coverage((term) => (passage.titleTf[term] ?? 0) > 0),
      windowCoverage: windowCoverage(passage.positions, weightOf, COVERAGE_WINDOW),
      missingSalient: salient && !holds(salient.term) ? 1 : 0,
      bm25Lucene: bm25With(passage, 1.2, 0.75),
      bm25NoLength: bm25With(passage, 1.2, 0),
      termCoverage: terms.length ? terms.filter((t) => holds(t.term)).length / terms.length : 0,
      spanDensity: spanDensity(passage.positions, terms),
      orderedPairs: orderedPairs(passage.positions, inOrder),
      denseCosine: cosines[i] ?? 0,
      lexicalReciprocalRank: reciprocal(branch(candidate, 'original:bm25')?.rank),
      denseReciprocalRank: reciprocal(branch(candidate, 'original:dense')?.rank),
      fusedLogRank: Math.log(Math.max(1, candidate.fusedRank)),
      documentBest: documentScores[0],
      documentSecond: documentScores[1] ?? 0,
      documentBestPassage: relative[i] >= documentScores[0] ? 1 : 0,
      documentPassages: Math.log(documentScores.length),
      logLength: Math.log(1 + passage.length),
      lengthRatio: passage.length / avgLength,
      denseMargin: cosines[i] === null ? 0 : cosines[i]! - bestCosine,
      denseCandidateReciprocalRank: cosineRank(cosines[i]),
      documentBestCosine: documentCosine.get(candidate.documentId) ?? 0,
      queryLikelihood: likelihood(passage),
      firstPassage: candidate.ordinal === 0 ? 1 : 0,
    };
    return LTR_FEATURES.map((name) => values[name]);
  });
}

/**
 * Distinct query terms the passage holds over the length of the shortest window of positions holding
 * each of them at least once (1 when they stand side by side); 0 when it holds fewer than two.
 */
export function spanDensity(
  positions: Record<string, number[]>,
  terms: readonly Pick<RerankQueryTerm, 'term'>[],
): number {
  const held = terms.filter((t) => (positions[t.term]?.length ?? 0) > 0).map((t) => t.term);
  if (held.length < 2) return 0;
  const events = held
    .flatMap((term, index) => positions[term].map((position) => ({ position, index })))
    .sort((x, y) => x.position - y.position || x.index - y.index);
  const counts = new Array<number>(held.length).fill(0);
  let covered = 0;
  let shortest = Infinity;
  let start = 0;
  for (const event of events) {
    if (counts[event.index]++ === 0) covered++;
    while (covered === held.length) {
      const first = events[start];
      shortest = Math.min(shortest, event.position - first.position + 1);
      if (--counts[first.index] === 0) covered--;
      start++;
    }
  }
  return held.length / shortest;
}

/**
 * The largest total weight of distinct terms found together within `window` consecutive positions
 * (weights: each term's share of the query's idf mass).
 */
export function windowCoverage(
  positions: Record<string, number[]>,
  weights: ReadonlyMap<string, number>,
  window: number,
): number {
  const events = Object.entries(positions)
    .filter(([term]) => weights.has(term))
    .flatMap(([term, list]) => list.map((position) => ({ position, term })))
    .sort((x, y) => x.position - y.position || (x.term < y.term ? -1 : 1));
  const counts = new Map<string, number>();
  let held = 0;
  let best = 0;
  let start = 0;
  for (const event of events) {
    while (event.position - events[start].position >= window) {
      const left = events[start++].term;
      const count = counts.get(left)! - 1;
      counts.set(left, count);
      if (count === 0) held -= weights.get(left)!;
    }
    const count = (counts.get(event.term) ?? 0) + 1;
    counts.set(event.term, count);
    if (count === 1) held += weights.get(event.term)!;
    best = Math.max(best, held);
  }
  return best;
}

/** Share of neighbouring query terms (a, b) in query order with some b at most ORDERED_PAIR_WINDOW after some a. */
export function orderedPairs(
  positions: Record<string, number[]>,
  termsInQueryOrder: readonly Pick<RerankQueryTerm, 'term'>[],
): number {
  const pairs = termsInQueryOrder.length - 1;
  if (pairs < 1) return 0;
  let found = 0;
  for (let i = 0; i < pairs; i++) {
    const first = positions[termsInQueryOrder[i].term] ?? [];
    const second = new Set(positions[termsInQueryOrder[i + 1].term] ?? []);
    const near = (p: number) => {
      for (let gap = 1; gap <= ORDERED_PAIR_WINDOW; gap++) if (second.has(p + gap)) return true;
      return false;
    };
    if (first.some(near)) found++;
  }
  return found / pairs;
}

function branch(candidate: RerankCandidate, name: string) {
  return candidate.branches.find((b) => b.branch === name);
}

function reciprocal(rank: number | undefined): number {
  return rank && rank > 0 ? 1 / rank : 0;
}
