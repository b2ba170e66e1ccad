import { candidateSentences, lexicalScore } from '../answer/extractive-answerer';
import type { TermEvidence } from './term-evidence';

/** What the features are computed from: the index's view of the query, and what the search found. */
export interface AnswerabilityInput {
  evidence: TermEvidence;
  /** Cosine similarity of the query to the top passages (best first), when the embedder was asked. */
  denseSimilarities?: number[];
  /** The top passages' text and headings (title › heading path), in the order of `evidence.passages`. */
  passageTexts?: { text: string; context: string }[];
  /** Per ranked list of the search (original, variants, HyDE, dense): its top chunk ids, best first. */
  branchTops?: string[][];
}

/**
 * Every feature the answerability model may weigh. Each is a number in a known range, computed from
 * the index alone (no model call), so the decision is cheap, offline and exactly reproducible.
 */
export const ANSWERABILITY_FEATURES = [
  /** Share of the query's idf mass (rare words weigh most) carried by words the corpus uses at all. */
  'idfMassInCorpus',
  /** Of the query's two most salient words (highest idf; words the corpus never uses count as most
   *  salient), the share the corpus uses. */
  'salientInCorpus',
  /** Share of the query's idf mass found in the best passage. */
  'coverageTop1',
  /** The highest such share among the top three passages. */
  'coverageTop3',
  /** Share of the query's idf mass found in the union of the top three passages. */
  'coverageUnion3',
  /** The share of the query's idf mass one sentence of the top passages carries (its headings count a
   *  third): an answer is usually one sentence that names most of what was asked. */
  'sentenceCoverage',
  /** Whether the query's most salient word the corpus uses is in the best passage. */
  'salientInTop1',
  /** The best BM25 score of the top three passages over the score the query could reach (every word,
   *  saturated tf). */
  'bm25Relative',
  /** (best − second best) / best BM25 score, among the top three passages. */
  'bm25Margin',
  /** ln(1 + number of query words after stop words). */
  'logQueryTerms',
  /** Cosine similarity of the query to the best passage (dense embedder); 0 when not measured. */
  'denseTop1',
  /** Share of the ranked lists whose top three contain the fused best passage (1 with one list). */
  'branchAgreement',
] as const;

export type AnswerabilityFeature = (typeof ANSWERABILITY_FEATURES)[number];

export type FeatureVector = Record<AnswerabilityFeature, number>;

/** Lucene's BM25 idf, as the SQL computes it; a word the corpus never uses gets the idf of df = 0. */
export function idf(df: number, chunks: number): number {
  return Math.log(1 + (chunks - df + 0.5) / (df + 0.5));
}

/** The features of one query's search. Pure: the same evidence always gives the same vector. */
export function answerabilityFeatures(input: AnswerabilityInput): FeatureVector {
  const { evidence } = input;
  const { bm25 } = evidence;
  const n = Math.max(evidence.corpus.chunks, 1);
  const terms = evidence.terms.map((t) => ({ ...t, idf: idf(t.df, n) }));
  const mass = terms.reduce((sum, t) => sum + t.qtf * t.idf, 0);
  const share = (pick: (term: string) => boolean): number =>
    mass > 0 ? terms.reduce((sum, t) => sum + (pick(t.term) ? t.qtf * t.idf : 0), 0) / mass : 0;

  const seen = new Set(terms.filter((t) => t.df > 0).map((t) => t.term));
  const bySalience = [...terms].sort((a, b) => b.idf - a.idf || (a.term < b.term ? -1 : 1));
  const salient = bySalience.slice(0, 2);
  const salientSeen = bySalience.find((t) => t.df > 0);

  const passages = evidence.passages;
  const contains = (i: number) => (term: string) => (passages[i]?.tf[term] ?? 0) > 0;
  const top3 = [0, 1, 2].filter((i) => i < passages.length);
  const coverages = top3.map((i) => share(contains(i)));

  const maxScore = terms.reduce((sum, t) => sum + t.qtf * t.idf * (bm25.k1 + 1), 0);
  const avgLength = evidence.corpus.avgLength || 1;
  const bm25Of = (i: number): number =>
    terms.reduce((sum, t) => {
      const tf = passages[i].tf[t.term] ?? 0;
      if (tf === 0) return sum;
      const norm = bm25.k1 * (1 - bm25.b + (bm25.b * passages[i].length) / avgLength);
      return sum + (t.qtf * t.idf * tf * (bm25.k1 + 1)) / (tf + norm);
    }, 0);
  const [s1 = 0, s2 = 0] = top3.map(bm25Of).sort((a, b) => b - a);

  const tops = input.branchTops?.filter((list) => list.length > 0) ?? [];
  const best = passages[0]?.chunkId;
  const agreement =
    tops.length === 0 || !best
      ? 1
      : tops.filter((list) => list.slice(0, 3).includes(best)).length / tops.length;

  const weighted = terms.map((t) => ({ term: t.term, weight: t.qtf * t.idf }));
  const sentences = candidateSentences(
    (input.passageTexts ?? []).map((p, i) => ({ marker: i + 1, text: p.text, context: p.context })),
  );
  const sentenceCoverage = Math.max(
    0,
    ...sentences.map((s) => lexicalScore({ ...s, rank: 0 }, weighted, { contextWeight: 0.35, rankDecay: 0 })),
  );

  return {
    sentenceCoverage,
    idfMassInCorpus: share((term) => seen.has(term)),
    salientInCorpus: salient.length ? salient.filter((t) => t.df > 0).length / salient.length : 0,
    coverageTop1: coverages[0] ?? 0,
    coverageTop3: coverages.length ? Math.max(...coverages) : 0,
    coverageUnion3: share((term) => top3.some((i) => contains(i)(term))),
    salientInTop1: salientSeen && contains(0)(salientSeen.term) ? 1 : 0,
    bm25Relative: maxScore > 0 ? Math.min(1, s1 / maxScore) : 0,
    bm25Margin: s1 > 0 ? (s1 - s2) / s1 : 0,
    logQueryTerms: Math.log(1 + terms.reduce((sum, t) => sum + t.qtf, 0)),
    denseTop1: input.denseSimilarities?.[0] ?? 0,
    branchAgreement: agreement,
  };
}

/** The query's words with their df and idf, rarest first (the verdict's `terms`). */
export function weightedQueryTerms(evidence: TermEvidence): { term: string; df: number; idf: number }[] {
  const n = Math.max(evidence.corpus.chunks, 1);
  return evidence.terms
    .map((t) => ({ term: t.term, df: t.df, idf: Math.round(idf(t.df, n) * 1e4) / 1e4 }))
    .sort((a, b) => b.idf - a.idf || (a.term < b.term ? -1 : 1));
}
