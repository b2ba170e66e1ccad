/** The items of source `$1`. */
export const SOURCE_ITEMS_SQL = `
  SELECT i.id, i.key, i.fingerprint, i.content_hash, i.document_id, i.commit, i.link, i.error, i.etag,
         i.last_modified, i.links
  FROM source_items i LEFT JOIN documents d ON d.id = i.document_id
  WHERE i.source_id = $1`;

/**
 * A new document of source `$1` in collection `$2` for an item (title `$3`, file name `$4`, MIME type `$5`,
 * content hash `$6`, size `$7`, metadata `$8`), being parsed.
 */
export const INSERT_SOURCE_DOCUMENT_SQL = `
  INSERT INTO documents (collection_id, source_id, title, source_name, mime_type, content_hash, status, byte_size,
                         metadata)
  VALUES ($2, $1, $3, $4, $5, $6, 'parsing', $7, $8::jsonb)
  RETURNING id`;

/** Item `$2` of source `$1` is document `$3` (its content hash unknown until indexed). */
export const CLAIM_ITEM_SQL = `
  INSERT INTO source_items (source_id, key, document_id) VALUES ($1, $2, $3)
  ON CONFLICT (source_id, key) DO UPDATE SET document_id = EXCLUDED.document_id, content_hash = NULL`;

/**
 * Item `$2` of source `$1` waits to be indexed (a failure that may pass, such as the embedder being
 * down): the next sync reads it again, whatever its fingerprint.
 */
export const ITEM_PENDING_SQL = `
  INSERT INTO source_items (source_id, key) VALUES ($1, $2)
  ON CONFLICT (source_id, key) DO UPDATE SET fingerprint = NULL, error = NULL`;

/** The version `$3` of item `$2` of source `$1` cannot be indexed, because `$4` (the item is made when new). */
export const ITEM_FAILED_SQL = `
  INSERT INTO source_items (source_id, key, fingerprint, error) VALUES ($1, $2, $3, $4)
  ON CONFLICT (source_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, error = EXCLUDED.error,
    synced_at = now()`;

/**
 * Item `$2` of source `$1` is indexed: fingerprint `$3`, content hash `$4`, commit `$5`, link `$6`, and a
 * web page's ETag `$7`, Last-Modified `$8` and links `$9`.
 */
export const ITEM_INDEXED_SQL = `
  UPDATE source_items SET fingerprint = $3, content_hash = $4, commit = $5, link = $6, error = NULL, synced_at = now(),
         etag = $7, last_modified = $8, links = $9::jsonb
  WHERE source_id = $1 AND key = $2`;

/**
 * Document `$1` now holds the item's latest bytes (hash `$2`, size `$3`, metadata `$4`, file name `$5`,
 * title `$6`).
 */
export const DOCUMENT_OF_ITEM_SQL = `
  UPDATE documents SET content_hash = $2, byte_size = $3, metadata = $4::jsonb, source_name = $5, title = $6,
         updated_at = now()
  WHERE id = $1`;

/**
 * An unchanged item's new fingerprint (a folder file touched, not changed), commit `$4`, link `$5`, and a
 * web page's ETag `$6`, Last-Modified `$7` and links `$8`.
 */
export const ITEM_SEEN_SQL = `
  UPDATE source_items SET fingerprint = $3, commit = coalesce($4, commit), link = coalesce($5, link), error = NULL,
         etag = coalesce($6, etag), last_modified = coalesce($7, last_modified), links = coalesce($8::jsonb, links)
  WHERE source_id = $1 AND key = $2`;

/** Item `$2` of source `$1` becomes `$3` (a rename). */
export const RENAME_ITEM_SQL = `UPDATE source_items SET key = $3 WHERE source_id = $1 AND key = $2`;

export const DELETE_ITEM_SQL = `DELETE FROM source_items WHERE source_id = $1 AND key = $2`;
