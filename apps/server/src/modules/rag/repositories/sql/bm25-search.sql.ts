/**
 * Okapi BM25 over the chunks, computed by PostgreSQL from the statistics the triggers keep
 * (see the bm25 migration; N, the total length and each df are sums over the writers' slots, see the
 * writer-slots migration). Parameters:
 *   $1 the query's analysed texts (text[])   $2 k1   $3 b   $4 limit
 *   $5 document ids (uuid[]; NULL = every document)   $6 the most query terms scored (BM25_MAX_QUERY_TERMS)
 *   $7 the text-search configuration of each analysed text (text[], same length as $1)
 *   $8 the searched collections' ids (uuid[]; every collection's when the search names none)
 *
 * Collections: N, the average length and each df are summed over the searched collections' rows only,
 * so idf is the idf of what is searched; postings are keyed (collection_id, term, chunk_id), so a term's
 * postings in one collection are one range of the key, read without touching another collection's.
 *
 * The query goes through the same analysis as the chunks: once for every configuration the corpus uses
 * (libs/rag analyseQuery), its lexemes pooled; a lexeme that two analyses produce counts once, with the
 * larger count. A corpus in one language gives one analysis, exactly as before. For each query lexeme t
 * (with its count qtf in the query):
 *   idf(t)   = ln(1 + (N - df + 0.5) / (df + 0.5))                                  (Lucene's BM25 idf)
 *   score(c) = Σ_t qtf · idf(t) · tf·(k1 + 1) / (tf + k1·(1 - b + b·len(c)/avglen))
 * Only the postings of the query's lexemes are read, term by term through the primary key (term,
 * chunk_id); each posting carries its chunk's length, so no chunk row is touched unless a document filter
 * asks for it. The cost grows with the query terms' document frequencies, not with the corpus. The
 * LATERAL … OFFSET 0 keeps it that way: without it the planner hashed the whole postings table once the
 * term list had a LIMIT (90 ms for any query on SciFact instead of 20). Ties break on chunk id so the
 * ranking is deterministic.
 *
 * Each term's contribution is rounded to 1e-12 and the contributions are added as integers: a sum is
 * then the same whatever order the database adds a chunk's terms in. Adding floating-point numbers is
 * not associative, and the order is the plan's (a sort before the grouping does not keep the terms'
 * order), so two chunks with equal scores could come out one unit in the last place apart, and their
 * order would depend on the plan rather than on their ids. The rounding moves a score by at most
 * 1e-12 per term.
 *
 * With `candidates`, the statement is restricted to the chunks of $9 (uuid[]): the pruned search
 * rescores its candidates with it, and gets the exhaustive statement's very scores for them
 * (bm25-pruned-search.ts).
 */
/** Score units per 1: contributions are rounded to 1e-12 and summed as integers. */
const SCORE_UNITS = '1e12::float8';

/** Every posting of the term `w.term` in the searched collections. */
const ALL_POSTINGS = `
  SELECT chunk_id, tf, chunk_length FROM bm25_postings
  WHERE term = w.term AND collection_id = ANY($8::uuid[])`;

/**
 * The postings of the term `w.term` of the candidate chunks $9 alone, each looked up in the key from the
 * candidate (a LATERAL that cannot be flattened, so always one probe per candidate). With chunk_id =
 * ANY($9) beside the term, the planner read all of a common term's postings and filtered them (766 ms
 * for 2,190 candidates of three common terms at 1M chunks, 56 ms this way); as a plain join it hashed
 * the candidates and read all the postings too, at 100k chunks (32 ms a term for 100 candidates).
 */
const CANDIDATE_POSTINGS = `
  SELECT p.chunk_id, p.tf, p.chunk_length
  FROM (SELECT DISTINCT id FROM unnest($9::uuid[]) AS u(id)) c
  CROSS JOIN LATERAL (
    SELECT chunk_id, tf, chunk_length FROM bm25_postings
    WHERE term = w.term AND collection_id = ANY($8::uuid[]) AND chunk_id = c.id
    OFFSET 0
  ) p`;

export function bm25SearchSql(candidates: boolean): string {
  return `
WITH query_terms AS (
  SELECT t.lexeme AS term, max(coalesce(array_length(t.positions, 1), 1)) AS qtf
  FROM unnest($1::text[], $7::text[]) AS a(text, config)
  CROSS JOIN LATERAL unnest(to_tsvector(a.config::regconfig, a.text)) AS t
  GROUP BY t.lexeme
),
corpus AS (
  SELECT coalesce(sum(chunk_count), 0)::float8 AS n,
         CASE WHEN sum(chunk_count) > 0 THEN sum(total_length)::float8 / sum(chunk_count) ELSE 1 END AS avg_len
  FROM bm25_corpus_slots
  WHERE collection_id = ANY($8::uuid[])
),
weighted_terms AS (
  SELECT q.term, q.qtf, ln(1 + (corpus.n - bt.df + 0.5) / (bt.df + 0.5)) AS idf
  FROM query_terms q
  CROSS JOIN LATERAL (
    SELECT sum(s.df)::float8 AS df FROM bm25_term_slots s
    WHERE s.term = q.term AND s.collection_id = ANY($8::uuid[])
  ) bt
  CROSS JOIN corpus
  WHERE bt.df > 0
  ORDER BY q.qtf * ln(1 + (corpus.n - bt.df + 0.5) / (bt.df + 0.5)) DESC, q.term
  LIMIT $6
)
SELECT p.chunk_id AS "chunkId",
       sum(round(w.qtf * w.idf * p.tf * ($2::float8 + 1)
           / (p.tf + $2::float8 * (1 - $3::float8 + $3::float8 * p.chunk_length / corpus.avg_len))
           * ${SCORE_UNITS})::int8)::float8 / ${SCORE_UNITS} AS score
FROM weighted_terms w
CROSS JOIN corpus
CROSS JOIN LATERAL (${candidates ? CANDIDATE_POSTINGS : ALL_POSTINGS}
  OFFSET 0
) p
WHERE $5::uuid[] IS NULL OR p.chunk_id IN (SELECT id FROM chunks WHERE document_id = ANY($5::uuid[]))
GROUP BY p.chunk_id
ORDER BY score DESC, p.chunk_id
LIMIT $4
`;
}

/** The exhaustive search: every posting of every query term (the reference the pruned search equals). */
export const BM25_SEARCH_SQL = bm25SearchSql(false);

/**
 * A long query (a HyDE passage, a pseudo-relevance-feedback document) is scored on its 24 strongest terms
 * by qtf·idf: the weak ones are common words with the longest postings lists and barely move the ranking.
 * Measured on the SciFact TRAIN split (809 queries, BM25 with expansion and HyDE from feedback): nDCG@10
 * 0.6869 with every term, 0.6882 (16), 0.6890 (24), 0.6864 (32); recall@100 0.941 → 0.939; the median
 * search 662 → 213 ms (with the LATERAL read above). Queries of 24 terms or fewer — nearly every question — rank exactly as before.
 */
export const BM25_MAX_QUERY_TERMS = 24;
