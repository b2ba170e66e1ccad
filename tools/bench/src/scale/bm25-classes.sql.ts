/**
 * Query terms by document frequency, for the BM25 query classes: terms with $1 ≤ df ≤ $2 that the
 * chunks' text-search configuration ($4) analyses to themselves, in a seeded pseudo-random order ($5),
 * at most $3.
 */
export const TERMS_BY_DF_SQL = `
  SELECT term, df::int AS df FROM bm25_terms
  WHERE df BETWEEN $1 AND $2 AND term ~ '^[a-z]{3,}$'
    AND array(SELECT lexeme FROM unnest(to_tsvector($4::regconfig, term))) = ARRAY[term]
  ORDER BY md5(term || $5::text) LIMIT $3`;

/** The chunks' commonest text-search configuration and their count. */
export const CORPUS_SHAPE_SQL = `
  SELECT (SELECT text_config::text FROM chunks GROUP BY text_config ORDER BY count(*) DESC LIMIT 1) AS config,
         (SELECT chunk_count FROM bm25_corpus)::int AS chunks`;
