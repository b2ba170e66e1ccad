/** Documents indexed and failed so far, and the chunks of the indexed ones. */
export const INGEST_PROGRESS_SQL = `SELECT count(*) FILTER (WHERE status = 'indexed')::int AS indexed,
              count(*) FILTER (WHERE status = 'failed')::int AS failed,
              coalesce(sum(chunk_count), 0)::int AS chunks
       FROM documents`;

/** The same, leaving out the documents that warmed the workers up. */
export const INGEST_PROGRESS_AFTER_WARM_UP_SQL = `${INGEST_PROGRESS_SQL} WHERE title <> 'Warm-up'`;

/** The text every chunk was indexed with. */
export const CHUNK_INDEX_TEXTS_SQL = `SELECT index_text FROM chunks`;

export const DOCUMENT_IDS_SQL = `SELECT id FROM documents`;

/** Vectors in the embedding cache: each one the model computed once (whichever process did it). */
export const CACHED_VECTORS_SQL = `SELECT count(*)::int AS n FROM embedding_cache`;

/** Deadlocks PostgreSQL detected in this database (each one a failed transaction, retried by the job). */
export const DEADLOCKS_SQL = `SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = current_database()`;
