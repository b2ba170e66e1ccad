/**
 * The answerability decision's evidence, read from the BM25 statistics (see bm25-search.sql.ts for the
 * analysis, which this shares: the query goes through the same text-search configuration).
 */

/**
 * $1 the query's analysed texts, $2 their text-search configurations (as BM25_SEARCH_SQL's $1 and $7) →
 * every query lexeme with its count in the query and its document frequency (0: unseen).
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
LEFT JOIN bm25_terms bt ON bt.term = q.term
ORDER BY q.term
`;

/** The corpus size and average indexed length BM25 uses. */
export const CORPUS_STATS_SQL = `
SELECT chunk_count::float8 AS chunks,
       CASE WHEN chunk_count > 0 THEN total_length::float8 / chunk_count ELSE 1 END AS "avgLength"
FROM bm25_corpus WHERE id = 1
`;

/** $1 terms, $2 chunk ids → each chunk's indexed length and the query terms it holds, through the postings' key. */
export const PASSAGE_TERMS_SQL = `
SELECT c.id AS "chunkId", c.lexical_length AS length, p.term, p.tf
FROM chunks c
LEFT JOIN bm25_postings p ON p.chunk_id = c.id AND p.term = ANY($1::text[])
WHERE c.id = ANY($2::uuid[])
`;
