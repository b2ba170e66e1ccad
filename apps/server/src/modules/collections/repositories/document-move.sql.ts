/** Document `$1`, locked until the move commits (no row: no such document). */
export const LOCK_DOCUMENT_SQL = `
  SELECT d.id, d.collection_id, d.content_hash, d.status, c.deleting_since IS NOT NULL AS source_deleting,
         d.source_id
  FROM documents d JOIN collections c ON c.id = d.collection_id
  WHERE d.id = $1 FOR UPDATE OF d`;

/** Collection `$1`, kept from being marked for deletion until the move commits (no row: none). */
export const LOCK_TARGET_SQL = `
  SELECT id, deleting_since IS NOT NULL AS deleting FROM collections WHERE id = $1 FOR SHARE`;

/** The uploaded document of collection `$1` with content hash `$2`, when there is one. */
export const SAME_BYTES_SQL = `SELECT id FROM documents WHERE collection_id = $1 AND content_hash = $2 AND source_id IS NULL`;

/** Moves document `$1` into collection `$2`. */
export const MOVE_DOCUMENT_SQL = `
  UPDATE documents SET collection_id = $2, updated_at = now() WHERE id = $1`;

/** Moves the chunks of document `$1` into collection `$2` (the BM25 triggers move their postings and statistics). */
export const MOVE_CHUNKS_SQL = `UPDATE chunks SET collection_id = $2 WHERE document_id = $1`;
