/** Chunks without a vector of model `$1` (none, or another model's). */
export const PENDING_EMBEDDING = `(embedding IS NULL OR embedding_model IS DISTINCT FROM $1)`;

/** The next `$3` chunks lacking a vector of model `$1`, in id order after id `$2` (null: from the start). */
export const PENDING_EMBEDDINGS_SQL = `
  SELECT id, index_text FROM chunks
  WHERE ${PENDING_EMBEDDING} AND ($2::uuid IS NULL OR id > $2::uuid)
  ORDER BY id LIMIT $3`;

/** Sets the vectors (`$2`, pgvector text) of chunks `$1`, computed by model `$3`. */
export const STORE_EMBEDDINGS_SQL = `
  UPDATE chunks c SET embedding = t.v::vector, embedding_model = $3
  FROM unnest($1::uuid[], $2::text[]) AS t(id, v) WHERE c.id = t.id`;

/**
 * New chunks, one per row of the parallel arrays; `$10` is the embedding model of those that have a
 * vector. Heading paths come as JSON arrays, vectors as pgvector text (cast to the column's type). Each
 * chunk takes its document's collection.
 */
export const INSERT_CHUNKS_SQL = `
  INSERT INTO chunks (document_id, collection_id, ordinal, text, index_text, heading_path, anchor, span_start,
                      span_end, embedding, embedding_model, page_start, page_end, text_config, lexical_text)
  SELECT t.document_id, d.collection_id, t.ordinal, t.text, t.index_text,
         ARRAY(SELECT jsonb_array_elements_text(t.heading_path)), t.anchor, t.span_start, t.span_end,
         t.embedding::vector, CASE WHEN t.embedding IS NULL THEN NULL ELSE $10 END, t.page_start, t.page_end,
         t.text_config::regconfig, t.lexical_text
  FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[], $5::jsonb[], $6::text[], $7::int[], $8::int[],
              $9::text[], $11::int[], $12::int[], $13::text[], $14::text[])
    AS t(document_id, ordinal, text, index_text, heading_path, anchor, span_start, span_end, embedding,
         page_start, page_end, text_config, lexical_text)
  JOIN documents d ON d.id = t.document_id`;

/**
 * Documents `$1` are indexed: each one's chunk count, language (`$2`) and text-search configuration
 * (`$3`), its error cleared.
 */
export const MARK_INDEXED_SQL = `
  UPDATE documents d SET chunk_count = coalesce(c.n, 0), status = 'indexed', error = NULL, updated_at = now(),
         language = ids.language, text_config = ids.text_config
  FROM unnest($1::uuid[], $2::text[], $3::text[]) AS ids(id, language, text_config)
  LEFT JOIN (SELECT document_id, count(*)::int AS n FROM chunks WHERE document_id = ANY($1::uuid[])
             GROUP BY document_id) c ON c.document_id = ids.id
  WHERE d.id = ids.id`;
