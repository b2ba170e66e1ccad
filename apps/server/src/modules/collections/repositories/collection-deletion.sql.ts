/** The next `$2` documents of collection `$1`, with what removing each needs (CollectionDocument). */
export const COLLECTION_DOCUMENTS_SQL = `
  SELECT id, status, metadata->>'format' AS format FROM documents
  WHERE collection_id = $1 ORDER BY id LIMIT $2`;

/** Documents `$1` still queued or in progress are cancelled: a running job stops at its next step. */
export const CANCEL_WORKING_SQL = `
  UPDATE documents SET status = 'cancelled', updated_at = now()
  WHERE id = ANY($1::uuid[]) AND status IN ('queued', 'parsing', 'chunking', 'embedding')`;

/**
 * Deletes documents `$1` of collection `$2` with their chunks and vectors (the BM25 triggers take their
 * postings and statistics away); returns how many documents and chunks went.
 */
export const DELETE_DOCUMENTS_SQL = `
  WITH gone AS (
    DELETE FROM documents WHERE id = ANY($1::uuid[]) AND collection_id = $2 RETURNING id
  )
  SELECT (SELECT count(*)::int FROM gone) AS documents,
         (SELECT count(*)::int FROM chunks c JOIN gone g ON g.id = c.document_id) AS chunks`;

/** How many question banks collection `$1` holds (they go with it, by cascade). */
export const COUNT_BANKS_SQL = `SELECT count(*)::int AS banks FROM question_banks WHERE collection_id = $1`;

/** Deletes collection `$1`: its banks (with items and runs), rerankers and any document left go by cascade. */
export const DELETE_COLLECTION_SQL = `DELETE FROM collections WHERE id = $1`;

/**
 * The BM25 rows of collection `$1`, once it is gone: with every chunk deleted each statistic sums to
 * zero over the writer slots, and nothing can add to a collection that no longer exists.
 */
export const DELETE_BM25_ROWS_SQL = [
  `DELETE FROM bm25_postings WHERE collection_id = $1`,
  `DELETE FROM bm25_term_slots WHERE collection_id = $1`,
  `DELETE FROM bm25_term_bounds WHERE collection_id = $1`,
  `DELETE FROM bm25_corpus_slots WHERE collection_id = $1`,
];

/** Per-collection BM25 statistics of `$1` that do not sum to zero (a sign of drift, logged). */
export const NONZERO_BM25_SQL = `
  SELECT
    (SELECT count(*)::int FROM (SELECT term FROM bm25_term_slots WHERE collection_id = $1
                                GROUP BY term HAVING sum(df) <> 0) t) AS terms,
    (SELECT coalesce(sum(chunk_count), 0)::int FROM bm25_corpus_slots WHERE collection_id = $1) AS chunks`;
