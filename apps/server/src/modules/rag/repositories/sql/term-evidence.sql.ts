/**
 * The answerability decision's evidence, read from the BM25 statistics (see bm25-search.sql.ts for the
 * analysis, which this shares: the query goes through the same text-search configuration).
 */

/**
 * $1 the query's analysed texts, $2 their text-search configurations (as BM25_SEARCH_SQL's $1 and $7) →
 * every query lexeme with its count in the query and its document frequency (0: unseen). Each df is the
 * sum of that term's writer slots (in collections $3, uuid[]), read through their key (term, slot), as BM25_SEARCH_SQL does: a LEFT
 * JOIN of the `bm25_terms` view aggregated every term of the vocabulary first, so one upload of random
 * words slowed every search.
 */
export const QUERY_TERM_STATS_SQL = `
WITH query_terms AS (
  SELECT t.lexeme AS term, max(coalesce(array_length(t.positions, 1), 1)) AS qtf
  FROM unnest($1::text[], $2::text[]) AS a(text, config)
  CROSS JOIN LATERAL unnest(to_tsvector(a.config::regconfig, a.text)) AS t
  GROUP BY t.lexeme
)
SELECT q.term, q.qtf, coalesce(bt.df, 0) AS df
FROM query_terms q
CROSS JOIN LATERAL (
  SELECT sum(s.df)::bigint AS df FROM bm25_term_slots s
  WHERE s.term = q.term AND s.collection_id = ANY($3::uuid[])
) bt
ORDER BY q.term
`;

/**
 * The corpus size and average indexed length BM25 uses: sums over the writers' slots (at most 64 rows
 * per collection) of collections $1 (uuid[]).
 */
export const CORPUS_STATS_SQL = `
SELECT coalesce(sum(chunk_count), 0)::float8 AS chunks,
       CASE WHEN sum(chunk_count) > 0 THEN sum(total_length)::float8 / sum(chunk_count) ELSE 1 END AS "avgLength"
FROM bm25_corpus_slots
WHERE collection_id = ANY($1::uuid[])
`;

/** $1 terms, $2 chunk ids → each chunk's indexed length and the query terms it holds, through the postings' key. */
export const PASSAGE_TERMS_SQL = `
SELECT c.id AS "chunkId", c.lexical_length AS length, p.term, p.tf
FROM chunks c
LEFT JOIN bm25_postings p ON p.chunk_id = c.id AND p.term = ANY($1::text[])
WHERE c.id = ANY($2::uuid[])
`;

/** Every collection's id: the statistics of a read that names no collection. */
export const ALL_COLLECTION_IDS_SQL = `SELECT id FROM collections`;
