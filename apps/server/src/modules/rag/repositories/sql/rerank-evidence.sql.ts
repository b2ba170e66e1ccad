/**
 * The learned reranker's evidence, read with the BM25 analysis (see bm25-search.sql.ts): the query goes
 * through the same text-search configurations, and a chunk's positions come from its stored `tsv`, the
 * analysis BM25's postings were built from (a term's tf there is the number of its positions).
 */

/**
 * $1 the query's analysed texts, $2 their text-search configurations (as BM25_SEARCH_SQL's $1 and $7) →
 * every query lexeme with its count in the query, its document frequency (0: unseen) and its first
 * position in the query (word order, for the ordered-pairs feature), in collections $3 (uuid[]). The df is summed over the writers'
 * slots term by term through their key, as BM25_SEARCH_SQL does: joining the `bm25_terms` view instead
 * aggregated every term's slots first (93 ms against 4 ms per query on SciFact, embedded database).
 */
export const RERANK_QUERY_TERMS_SQL = `
WITH query_terms AS (
  SELECT t.lexeme AS term, max(coalesce(array_length(t.positions, 1), 1)) AS qtf,
         min(coalesce(t.positions[1], 1)) AS position
  FROM unnest($1::text[], $2::text[]) AS a(text, config)
  CROSS JOIN LATERAL unnest(to_tsvector(a.config::regconfig, a.text)) AS t
  GROUP BY t.lexeme
)
SELECT q.term, q.qtf, coalesce(bt.df, 0) AS df, q.position
FROM query_terms q
CROSS JOIN LATERAL (
  SELECT sum(s.df)::float8 AS df FROM bm25_term_slots s
  WHERE s.term = q.term AND s.collection_id = ANY($3::uuid[])
) bt
ORDER BY q.term
`;

/**
 * $1 the query's lexemes, $2 chunk ids → per chunk: its indexed length, the positions of the query's
 * lexemes in its indexed text, and the query lexemes' counts in its document's title and in its heading
 * path (analysed with the chunk's own configuration), with those fields' lengths in tokens.
 */
export const RERANK_PASSAGES_SQL = `
SELECT c.id AS "chunkId", c.lexical_length AS length,
       (SELECT coalesce(json_object_agg(t.lexeme, t.positions), '{}'::json)
          FROM unnest(c.tsv) AS t WHERE t.lexeme = ANY($1::text[])) AS positions,
       (SELECT coalesce(json_object_agg(t.lexeme, coalesce(array_length(t.positions, 1), 1)), '{}'::json)
          FROM unnest(title.tsv) AS t WHERE t.lexeme = ANY($1::text[])) AS "titleTf",
       coalesce(bm25_token_count(title.tsv), 0) AS "titleLength",
       (SELECT coalesce(json_object_agg(t.lexeme, coalesce(array_length(t.positions, 1), 1)), '{}'::json)
          FROM unnest(heading.tsv) AS t WHERE t.lexeme = ANY($1::text[])) AS "headingTf",
       coalesce(bm25_token_count(heading.tsv), 0) AS "headingLength"
FROM chunks c
JOIN documents d ON d.id = c.document_id
CROSS JOIN LATERAL (SELECT to_tsvector(c.text_config, coalesce(d.title, '')) AS tsv) title
CROSS JOIN LATERAL (SELECT to_tsvector(c.text_config, array_to_string(c.heading_path, ' ')) AS tsv) heading
WHERE c.id = ANY($2::uuid[])
`;
