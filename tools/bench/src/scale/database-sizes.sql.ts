/** The sizes of the chunks table, its indexes, the BM25 tables and the database, in bytes. */
export const DATABASE_SIZES_SQL = `
    SELECT pg_total_relation_size('chunks') AS chunks_total,
           pg_relation_size('chunks') AS chunks_heap,
           coalesce((SELECT pg_total_relation_size(reltoastrelid) FROM pg_class
                     WHERE oid = 'chunks'::regclass AND reltoastrelid <> 0), 0) AS chunks_toast,
           coalesce(pg_relation_size(to_regclass('chunks_embedding_hnsw_idx')), 0) AS hnsw_index,
           coalesce(pg_relation_size(to_regclass('chunks_tsv_gin_idx')), 0) AS gin_index,
           pg_total_relation_size('bm25_postings') + pg_total_relation_size('bm25_term_slots')
             + pg_total_relation_size('bm25_term_bounds') AS bm25,
           pg_database_size(current_database()) AS database,
           (SELECT avg(pg_column_size(embedding)) FROM chunks) AS bytes_per_vector,
           (SELECT count(*) FROM chunks) AS row_count`;
