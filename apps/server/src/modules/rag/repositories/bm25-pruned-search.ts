import { BOUND_SLACK, everyTermQuery, maxScorePlan, missingOneTermBound } from '@lumina/rag';
import type { BoundedTerm, ScoredChunk } from '@lumina/rag';
import type { DataSource, EntityManager } from 'typeorm';
import {
  BM25_INTERSECTION_SQL,
  BM25_MAXSCORE_CANDIDATES_SQL,
  BM25_TERMS_AND_SEEDS_SQL,
  BM25_TERMS_OR_HITS_SQL,
} from './sql/bm25-pruned.sql';
import { bm25SearchSql } from './sql/bm25-search.sql';

/** One BM25 query: its analysed texts, the collections whose statistics it uses, its document filter. */
export interface Bm25Query {
  texts: string[];
  configs: string[];
  collections: readonly string[];
  documentIds: string[] | null;
  k: number;
}

export interface Bm25Parameters {
  k1: number;
  b: number;
  maxQueryTerms: number;
}

export interface Bm25PruningOptions {
  /** Queries whose terms hold at most this many postings in all are scored exhaustively. */
  pruneAbove: number;
  /**
   * Queries of more scored terms than this are scored exhaustively: with many terms the threshold
   * rarely leaves any non-essential (MaxScore pruned 0–7% of 24-term queries in bench:scale), and trying
   * costs the seeds' statement on top of the exhaustive one.
   */
  maxPrunedTerms: number;
  /**
   * Postings looked up to score the first chunks for the threshold: the rarest terms' first
   * seedLookups / terms chunks (at least 2k, at most 100) are scored in full.
   */
  seedLookups: number;
  /**
   * Pruning is given up (the exhaustive statement runs) when the essential terms hold more than this
   * share of the query's postings: reading them and looking the rest up costs about as much as reading
   * everything.
   */
  maxEssentialShare: number;
  /**
   * The intersection pass (for queries MaxScore cannot prune, such as common words only) answers when
   * the chunks holding all the terms, times the terms, are at most this share of the query's postings;
   * it stops reading them past that.
   */
  maxIntersectionShare: number;
}

/**
 * Chosen by measurement on bench:scale (README, "BM25 at scale"). With the postings read from their key
 * alone, the exhaustive statement reads about 0.7 µs a posting at 1M chunks, so a pruned search that
 * gives up (its seeds' statement, then the exhaustive one) costs more than reading 12,000 postings: three
 * mid terms at 1M, 12.5 ms against 9.2, with pruneAbove at 5,000.
 */
export const DEFAULT_BM25_PRUNING: Bm25PruningOptions = {
  pruneAbove: 15_000,
  maxPrunedTerms: 8,
  seedLookups: 600,
  maxEssentialShare: 0.3,
  maxIntersectionShare: 0.25,
};

/** What one search read: postings read in full lists, and postings looked up by key. */
export interface Bm25SearchStats {
  /** pruned: MaxScore; intersection: the chunks holding every term, when no other chunk can beat them. */
  path: 'exhaustive' | 'pruned' | 'intersection';
  terms: number;
  essentialTerms: number;
  /** Postings read as whole lists (every term's in the exhaustive path; the seed and essential terms'). */
  postings: number;
  /**
   * Postings looked up by (collection, term, chunk) in the key: non-essential terms and rescoring (and
   * the intersection's chunks, scored in full).
   */
  lookups: number;
  /** The query's postings in all (what the exhaustive path reads). */
  totalPostings: number;
  /** Chunks found holding every term through the GIN index (0 when the intersection pass did not run). */
  intersection: number;
}

const EXHAUSTIVE_SQL = bm25SearchSql(false);
const RESCORE_SQL = bm25SearchSql(true);

/**
 * BM25 top-k with MaxScore pruning (Turtle & Flood, 1995), exactly equal to the exhaustive statement:
 *
 * 1. The query's terms come with the same df, idf and order as the exhaustive statement's, and with each
 *    term's stored bound (largest tf, smallest length per tf), which gives an upper bound on what the term
 *    can add to any chunk's score (libs/rag maxscore.ts).
 * 2. A threshold: the first chunks of the rarest terms (seedLookups / terms of them) are scored in full
 *    as the exhaustive statement scores them, in the statement that reads the terms again in the
 *    search's snapshot (BM25_TERMS_AND_SEEDS_SQL); their k-th score is a score some k chunks reach, so
 *    the true k-th score is at least as high.
 * 3. The terms with the smallest bounds whose bounds sum below the threshold are non-essential: a chunk
 *    holding none of the other (essential) terms cannot reach the threshold. The essential terms'
 *    postings are read in full and summed per chunk; a chunk whose partial sum plus the non-essential
 *    bounds stays below the threshold is dropped; the rest get the non-essential terms looked up in the
 *    postings' key (collection, term, chunk) for them alone.
 * 4. The chunks whose score is within a relative 1e-9 of the k-th best are rescored by the exhaustive
 *    statement restricted to them. Its scores are sums of contributions rounded to 1e-12 and added as
 *    integers, so a chunk's score does not depend on which chunks are scored beside it nor on the order
 *    the plan adds its terms in: the top k, its scores and its tie order (chunk id) are the exhaustive
 *    search's.
 * 5. When MaxScore cannot prune (nothing non-essential, or the essential terms hold too many postings),
 *    the intersection pass (`intersection`) may answer: the chunks holding every term, scored in full.
 * Small queries (few postings), one-term queries and queries neither can prune run the exhaustive
 * statement itself.
 */
export class Bm25PrunedSearch {
  constructor(
    private readonly dataSource: DataSource,
    private readonly parameters: Bm25Parameters,
    private readonly pruning: Bm25PruningOptions = DEFAULT_BM25_PRUNING,
  ) {}

  /** The exhaustive statement: every posting of every query term. The reference. */
  async exhaustive(query: Bm25Query): Promise<ScoredChunk[]> {
    return scored(await this.dataSource.query(EXHAUSTIVE_SQL, this.statementParameters(query, null)));
  }

  async search(query: Bm25Query): Promise<{ hits: ScoredChunk[]; stats: Bm25SearchStats }> {
    const first = await this.termsOrHits(this.dataSource, query);
    if (first.hits) return { hits: first.hits, stats: exhaustiveStats(first.terms, first.postings) };
    // Every statement of a pruned search reads one snapshot: a write committed between two of them would
    // change N, the df and the postings under the threshold. The terms are read again in it.
    const seedsPerTerm = Math.min(
      100,
      Math.max(2 * query.k, Math.floor(this.pruning.seedLookups / first.terms)),
    );
    return this.dataSource.transaction('REPEATABLE READ', (manager) =>
      this.pruned(manager, query, seedsPerTerm),
    );
  }

  /**
   * How many scored terms the query has and their postings in all, and the top k itself (hits) when the
   * query is too small to prune: one statement (BM25_TERMS_OR_HITS_SQL).
   */
  private async termsOrHits(
    db: Queryable,
    query: Bm25Query,
  ): Promise<{ terms: number; postings: number; hits: ScoredChunk[] | null }> {
    const rows: { terms: number; postings: number; chunkId: string | null; score: number | null }[] =
      await db.query(BM25_TERMS_OR_HITS_SQL, [
        ...this.statementParameters(query, null),
        this.pruning.pruneAbove,
        this.pruning.maxPrunedTerms,
      ]);
    const terms = rows.length > 0 ? Number(rows[0].terms) : 0;
    const postings = rows.length > 0 ? Number(rows[0].postings) : 0;
    const hits = rows.flatMap((row) =>
      row.chunkId === null ? [] : [{ chunkId: row.chunkId, score: Number(row.score) }],
    );
    return { terms, postings, hits: this.isSmall(query, terms, postings) ? hits : null };
  }

  /**
   * Not worth pruning: few postings in all, one term or many, or no hit asked for. BM25_TERMS_OR_HITS_SQL
   * writes the same rule as its `small` (it cannot wait for this one: it decides whether to read the
   * postings at all); the two must agree, or termsOrHits would take its empty hits for the answer.
   */
  private isSmall(query: Bm25Query, terms: number, postings: number): boolean {
    return (
      terms < 2 || terms > this.pruning.maxPrunedTerms || postings <= this.pruning.pruneAbove || query.k < 1
    );
  }

  private async pruned(
    db: Queryable,
    query: Bm25Query,
    seedsPerTerm: number,
  ): Promise<{ hits: ScoredChunk[]; stats: Bm25SearchStats }> {
    const { k1, b } = this.parameters;
    // The terms again, in this snapshot, with the seeds' full scores (BM25_TERMS_AND_SEEDS_SQL).
    const rows: TermOrHitRow[] = await db.query(BM25_TERMS_AND_SEEDS_SQL, [
      ...this.statementParameters(query, null),
      seedsPerTerm,
    ]);
    const { terms, avgLength, hits: seedTop } = termsAndHits(rows);
    const stats = exhaustiveStats(
      terms.length,
      terms.reduce((sum, term) => sum + term.df, 0),
    );
    const exhaustive = async () => ({
      hits: scored(await db.query(EXHAUSTIVE_SQL, this.statementParameters(query, null))),
      stats,
    });
    // A write between the first read and this snapshot made the query too small to prune.
    if (this.isSmall(query, stats.terms, stats.totalPostings)) return exhaustive();

    const seeds = rows.length > 0 ? Number(rows[0].seeds ?? 0) : 0;
    stats.postings += seeds;
    stats.lookups += seeds * terms.length;
    const threshold = seedTop.length >= query.k ? seedTop[query.k - 1].score : 0;
    const plan = maxScorePlan(terms, threshold, k1, b, avgLength);
    const essentialPostings = plan.essential.reduce((sum, term) => sum + term.df, 0);
    if (
      plan.nonEssential.length === 0 ||
      essentialPostings > this.pruning.maxEssentialShare * stats.totalPostings
    ) {
      // MaxScore cannot prune: the intersection pass may still answer (common words only, mostly). When
      // it cannot either, MaxScore planned again on the intersection's higher threshold measured slower
      // than the exhaustive statement (bench:scale, all common at 100k: p95 197 ms against 106).
      const hits = await this.intersection(db, query, terms, avgLength, stats);
      if (hits) return { hits, stats: { ...stats, path: 'intersection', postings: seeds } };
      return exhaustive();
    }

    const candidates: { chunkId: string; score: number; lookedUp: number }[] = await db.query(
      BM25_MAXSCORE_CANDIDATES_SQL,
      [
        k1,
        b,
        avgLength,
        plan.essential.map((term) => term.term),
        plan.essential.map((term) => term.weight),
        plan.nonEssential.map((term) => term.term),
        plan.nonEssential.map((term) => term.weight),
        plan.nonEssentialBound,
        threshold,
        query.collections,
        query.k,
        query.documentIds,
        BOUND_SLACK,
      ],
    );
    const lookedUp = candidates.length > 0 ? Number(candidates[0].lookedUp) : 0;
    const hits = await this.rescore(
      db,
      query,
      candidates.map((candidate) => candidate.chunkId),
    );
    return {
      hits,
      stats: {
        path: 'pruned',
        terms: terms.length,
        essentialTerms: plan.essential.length,
        postings: seeds + essentialPostings,
        lookups: stats.lookups + lookedUp * plan.nonEssential.length + candidates.length * terms.length,
        totalPostings: stats.totalPostings,
        intersection: stats.intersection,
      },
    };
  }

  /**
   * The intersection pass: the chunks holding every term (through the GIN index on chunks.tsv), each
   * scored from its own tsvector as the exhaustive statement scores its postings (BM25_INTERSECTION_SQL).
   * A chunk lacking a term scores at most the sum of the other terms' bounds (missingOneTermBound); when
   * the k-th best score of the intersection is above that, its top k is the top k, scores and ties
   * included. Null when it is not, or when the intersection is too large to score cheaply or holds fewer
   * than k chunks.
   */
  private async intersection(
    db: Queryable,
    query: Bm25Query,
    terms: BoundedTerm[],
    avgLength: number,
    stats: Bm25SearchStats,
  ): Promise<ScoredChunk[] | null> {
    const { k1, b } = this.parameters;
    const bound = missingOneTermBound(terms, k1, b, avgLength);
    const most = Math.floor(
      (this.pruning.maxIntersectionShare * stats.totalPostings) / Math.max(1, terms.length),
    );
    if (!Number.isFinite(bound) || most < query.k) return null;
    const rows: { chunkId: string; score: number; holding: number }[] = await db.query(
      BM25_INTERSECTION_SQL,
      [...this.statementParameters(query, null), everyTermQuery(terms.map((term) => term.term)), most + 1],
    );
    // Every row carries how many chunks the statement read (at most most + 1).
    stats.intersection = rows.length > 0 ? Number(rows[0].holding) : 0;
    if (rows.length < query.k || stats.intersection > most) return null;
    const top = scored(rows);
    return top[query.k - 1].score * (1 - BOUND_SLACK) > bound ? top : null;
  }

  /** The exhaustive statement's top k among `chunkIds` alone, with its scores. */
  private async rescore(db: Queryable, query: Bm25Query, chunkIds: string[]): Promise<ScoredChunk[]> {
    if (chunkIds.length === 0) return [];
    return scored(await db.query(RESCORE_SQL, this.statementParameters(query, chunkIds)));
  }

  private statementParameters(query: Bm25Query, chunkIds: string[] | null): unknown[] {
    const parameters: unknown[] = [
      query.texts,
      this.parameters.k1,
      this.parameters.b,
      query.k,
      query.documentIds,
      this.parameters.maxQueryTerms,
      query.configs,
      query.collections,
    ];
    if (chunkIds) parameters.push(chunkIds);
    return parameters;
  }
}

/** A data source or a transaction's manager. */
type Queryable = Pick<EntityManager, 'query'>;

/** A row of BM25_TERMS_AND_SEEDS_SQL. */
interface TermOrHitRow {
  kind: 'term' | 'hit';
  term: string;
  weight: number;
  df: number;
  avgLength: number;
  maxTf: number | null;
  minLengthPerTf: number | null;
  chunkId: string;
  score: number;
  /** BM25_TERMS_AND_SEEDS_SQL: the seed chunks scored. */
  seeds?: number;
}

/** The terms with their bounds, the average length and the hits (in rank order) of such rows. */
function termsAndHits(rows: TermOrHitRow[]): {
  terms: BoundedTerm[];
  avgLength: number;
  hits: ScoredChunk[];
} {
  const termRows = rows.filter((row) => row.kind === 'term');
  return {
    terms: termRows.map((row) => ({
      term: row.term,
      weight: Number(row.weight),
      df: Number(row.df),
      maxTf: row.maxTf === null ? null : Number(row.maxTf),
      minLengthPerTf: row.minLengthPerTf === null ? null : Number(row.minLengthPerTf),
    })),
    avgLength: termRows.length > 0 ? Number(termRows[0].avgLength) : 1,
    hits: rows
      .filter((row) => row.kind === 'hit')
      .map((row) => ({ chunkId: row.chunkId, score: Number(row.score) }))
      .sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : a.chunkId > b.chunkId ? 1 : 0)),
  };
}

function exhaustiveStats(terms: number, totalPostings: number): Bm25SearchStats {
  return {
    path: 'exhaustive',
    terms,
    essentialTerms: terms,
    postings: totalPostings,
    lookups: 0,
    totalPostings,
    intersection: 0,
  };
}

function scored(rows: { chunkId: string; score: number }[]): ScoredChunk[] {
  return rows.map((row) => ({ chunkId: row.chunkId, score: Number(row.score) }));
}
