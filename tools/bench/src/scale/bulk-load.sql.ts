import { CHUNK_EMBEDDING_INDEX, cosineOpsFor } from '@lumina/server-core';
import type { EmbeddingStorage } from '@lumina/server-core';

/** Before a bulk load: the indexes cheaper to build once afterwards, and the BM25 insert trigger. */
export const PREPARE_BULK_LOAD_SQL = {
  dropIndexes: [`DROP INDEX IF EXISTS ${CHUNK_EMBEDDING_INDEX}`, `DROP INDEX IF EXISTS chunks_tsv_gin_idx`],
  disableBm25Trigger: `ALTER TABLE chunks DISABLE TRIGGER chunks_bm25_insert`,
};

/** Binary COPY of the synthetic documents and chunks (PGlite reads the data from /dev/blob). */
export const COPY_DOCUMENTS_SQL = `COPY documents (id, title, content_hash, external_id, status, chunk_count, byte_size)
     FROM '/dev/blob' WITH (FORMAT binary)`;
export const COPY_CHUNKS_SQL = `COPY chunks (id, document_id, ordinal, text, index_text, heading_path, span_start, span_end,
                    embedding, embedding_model)
       FROM '/dev/blob' WITH (FORMAT binary)`;

/**
 * The BM25 statistics the chunk triggers keep (see the bm25 migration), for the whole table in one
 * INSERT … SELECT each, with the postings' keys dropped during the insert and re-created after (as the
 * migrations define them: bulk-load.spec.ts compares them); the insert trigger is enabled again at the end.
 */
export const REBUILD_BM25_SQL = [
  `ALTER TABLE bm25_postings DROP CONSTRAINT IF EXISTS bm25_postings_chunk_id_fkey`,
  `ALTER TABLE bm25_postings DROP CONSTRAINT IF EXISTS bm25_postings_pkey`,
  `DROP INDEX IF EXISTS bm25_postings_chunk_idx`,
  `TRUNCATE bm25_postings, bm25_term_slots, bm25_term_bounds, bm25_corpus_slots`,
  `
    INSERT INTO bm25_postings (collection_id, term, chunk_id, tf, chunk_length)
    SELECT c.collection_id, t.lexeme, c.id, coalesce(array_length(t.positions, 1), 1), c.lexical_length
    FROM chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t`,
  `
    INSERT INTO bm25_term_slots (collection_id, term, slot, df)
    SELECT collection_id, term, 0, count(*) FROM bm25_postings GROUP BY collection_id, term`,
  `
    INSERT INTO bm25_term_bounds (collection_id, term, slot, max_tf, min_length_per_tf)
    SELECT collection_id, term, 0, max(tf), min(chunk_length::float8 / tf) FROM bm25_postings
    GROUP BY collection_id, term`,
  `
    INSERT INTO bm25_corpus_slots (collection_id, slot, chunk_count, total_length)
    SELECT collection_id, 0, count(*), coalesce(sum(lexical_length), 0) FROM chunks GROUP BY collection_id`,
  `ALTER TABLE bm25_postings ADD CONSTRAINT bm25_postings_pkey PRIMARY KEY (collection_id, term, chunk_id) INCLUDE (tf, chunk_length)`,
  `CREATE INDEX bm25_postings_chunk_idx ON bm25_postings (chunk_id)`,
  `
    ALTER TABLE bm25_postings ADD CONSTRAINT bm25_postings_chunk_id_fkey
      FOREIGN KEY (chunk_id) REFERENCES chunks (id) ON DELETE CASCADE`,
  `ALTER TABLE chunks ENABLE TRIGGER chunks_bm25_insert`,
];

/** The postings and terms the BM25 statistics hold: with the slot tables after a rebuild, as kept by triggers otherwise. */
export const BM25_COUNTS_SQL = {
  rebuilt: `SELECT (SELECT count(*) FROM bm25_postings) AS postings, (SELECT count(*) FROM bm25_term_slots) AS terms`,
  kept: `SELECT (SELECT count(*) FROM bm25_postings) AS postings, (SELECT count(*) FROM bm25_terms) AS terms`,
};

/** What a kept schema holds (--reuse): its chunks, how many of the ids $1 it has, its postings and terms. */
export const KEPT_CORPUS_SQL = `SELECT (SELECT count(*) FROM chunks) AS chunks,
  (SELECT count(*) FROM chunks WHERE id = ANY($1::uuid[])) AS found,
  (SELECT count(*) FROM bm25_postings) AS postings, (SELECT count(*) FROM bm25_terms) AS terms`;

export const CREATE_GIN_INDEX_SQL = `CREATE INDEX chunks_tsv_gin_idx ON chunks USING gin (tsv)`;

export const SET_MAINTENANCE_WORK_MEM_SQL = `SELECT set_config('maintenance_work_mem', $1, false)`;

/** The HNSW index the migrations define (same name, operator class of the storage). */
export function createHnswIndexSql(storage: EmbeddingStorage, m: number, efConstruction: number): string {
  return `CREATE INDEX ${CHUNK_EMBEDDING_INDEX} ON chunks USING hnsw (embedding ${cosineOpsFor(storage)})
     WITH (m = ${Math.trunc(m)}, ef_construction = ${Math.trunc(efConstruction)})`;
}
