/** A document as the API shows it (DocumentRow). */
export const DOCUMENT_COLUMNS = `id, collection_id, title, source_name, mime_type, metadata->>'format' AS format, external_id, status, error,
  chunk_count, byte_size, language, content_hash, created_at, updated_at, source_id, metadata->'source' AS origin`;

/**
 * Documents whose title matches `$1` (an ILIKE pattern, or null: any), whose status is `$2` (or null),
 * whose collection is `$3` (or null: any) and one of `$4` (the collections the caller reads; null: all).
 */
const LISTED = `($1::text IS NULL OR title ILIKE $1 ESCAPE '\\') AND ($2::text IS NULL OR status = $2)
  AND ($3::uuid IS NULL OR collection_id = $3) AND ($4::uuid[] IS NULL OR collection_id = ANY($4::uuid[]))`;

export const COUNT_DOCUMENTS_SQL = `SELECT count(*)::int AS total FROM documents WHERE ${LISTED}`;

/** The listed documents, newest first: `$5` of them from offset `$6`. */
export const DOCUMENT_PAGE_SQL = `
  SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE ${LISTED}
  ORDER BY created_at DESC, id DESC LIMIT $5 OFFSET $6`;

/** What an upload compares a document with (StoredDocument). */
export const STORED_DOCUMENT_COLUMNS = `id, collection_id, title, status, content_hash, external_id,
  metadata->>'format' AS format`;

/**
 * New documents of collection `$9`, queued, one per row of the parallel arrays (title, source name, MIME
 * type, content hash, external id, size, metadata, language); a content hash already uploaded into that
 * collection is skipped (documents of sources do not count: their identity is their item). Returns what was inserted.
 */
export const INSERT_DOCUMENTS_SQL = `
  INSERT INTO documents (collection_id, title, source_name, mime_type, content_hash, external_id, status,
                         byte_size, metadata, language)
  SELECT $9::uuid, t.title, t.source_name, t.mime_type, t.hash, t.external_id, 'queued', t.size, t.metadata,
         t.language
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::jsonb[],
              $8::text[])
    AS t(title, source_name, mime_type, hash, external_id, size, metadata, language)
  ON CONFLICT (collection_id, content_hash) WHERE source_id IS NULL DO NOTHING
  RETURNING id, content_hash`;

/** Statuses a job is done with: the pipeline never moves a document out of them. */
const FINISHED = `('indexed', 'failed', 'cancelled')`;

/** What the ingestion job reads of its document (IngestedDocument). */
const INGESTED_COLUMNS = `id, title, source_name, status, chunk_count, metadata->>'format' AS format, language`;

/** Moves unfinished document `$1` to parsing and returns it (no row when it is finished or gone). */
export const START_INGESTION_SQL = `
  UPDATE documents SET status = 'parsing', updated_at = now() WHERE id = $1 AND status NOT IN ${FINISHED}
  RETURNING ${INGESTED_COLUMNS}`;

export const INGESTED_DOCUMENT_SQL = `SELECT ${INGESTED_COLUMNS} FROM documents WHERE id = $1`;

/** Moves unfinished document `$1` to status `$2`. */
export const ADVANCE_SQL = `
  UPDATE documents SET status = $2, updated_at = now() WHERE id = $1 AND status NOT IN ${FINISHED}`;

/** Queues unfinished document `$1` again after a failed attempt, saying why (`$2`). */
export const RETRY_LATER_SQL = `
  UPDATE documents SET status = 'queued', error = $2, updated_at = now()
  WHERE id = $1 AND status NOT IN ${FINISHED}`;

/** Fails unfinished document `$1` with the sentence `$2`. */
export const FAIL_SQL = `
  UPDATE documents SET status = 'failed', error = $2, updated_at = now()
  WHERE id = $1 AND status NOT IN ${FINISHED}`;
