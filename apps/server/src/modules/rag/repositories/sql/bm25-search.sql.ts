/**
 * Okapi BM25 over the chunks, computed by PostgreSQL from the statistics the triggers keep
 * (see the bm25 migration). Parameters:
 *   $1 query text   $2 k1   $3 b   $4 limit   $5 document ids (uuid[]; NULL = every document)
 *
 * The query goes through the same text-search configuration as the chunks ('english': Snowball stemming
 * and stop words). For each query lexeme t (with its count qtf in the query):
 *   idf(t)   = ln(1 + (N - df + 0.5) / (df + 0.5))                                  (Lucene's BM25 idf)
 *   score(c) = Σ_t qtf · idf(t) · tf·(k1 + 1) / (tf + k1·(1 - b + b·len(c)/avglen))
 * Only the postings of the query's lexemes are read (primary key (term, chunk_id)), so the cost grows
 * with the query terms' document frequencies, not with the corpus. Ties break on chunk id so the
 * ranking is deterministic.
 */
export const BM25_SEARCH_SQL = `
WITH query_terms AS (
  SELECT t.lexeme AS term, coalesce(array_length(t.positions, 1), 1) AS qtf
  FROM unnest(to_tsvector('english'::regconfig, $1::text)) AS t
),
corpus AS (
  SELECT chunk_count::float8 AS n,
         CASE WHEN chunk_count > 0 THEN total_length::float8 / chunk_count ELSE 1 END AS avg_len
  FROM bm25_corpus WHERE id = 1
),
weighted_terms AS (
  SELECT q.term, q.qtf, ln(1 + (corpus.n - bt.df + 0.5) / (bt.df + 0.5)) AS idf
  FROM query_terms q
  JOIN bm25_terms bt ON bt.term = q.term
  CROSS JOIN corpus
)
SELECT p.chunk_id AS "chunkId",
       sum(w.qtf * w.idf * p.tf * ($2::float8 + 1)
           / (p.tf + $2::float8 * (1 - $3::float8 + $3::float8 * c.lexical_length / corpus.avg_len))) AS score
FROM weighted_terms w
JOIN bm25_postings p ON p.term = w.term
JOIN chunks c ON c.id = p.chunk_id
CROSS JOIN corpus
WHERE $5::uuid[] IS NULL OR c.document_id = ANY($5::uuid[])
GROUP BY p.chunk_id
ORDER BY score DESC, p.chunk_id
LIMIT $4
`;
