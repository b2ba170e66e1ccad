/** A source as the API shows it (SourceRow), with its item count and whether a sync runs now. */
export const SOURCE_COLUMNS = `s.id, s.collection_id, s.name, s.kind, s.config, s.schedule_minutes, s.next_sync_at,
  s.sync_requested_at, s.cursor, s.created_at, s.updated_at,
  (SELECT count(*)::int FROM source_items i WHERE i.source_id = s.id) AS item_count,
  EXISTS (SELECT 1 FROM source_sync_runs r WHERE r.source_id = s.id AND r.status = 'running') AS running,
  (SELECT c.deleting_since IS NOT NULL FROM collections c WHERE c.id = s.collection_id) AS collection_deleting`;

/** Sources of collection `$1` (null: any) among collections `$2` (null: all). */
const LISTED = `($1::uuid IS NULL OR s.collection_id = $1) AND ($2::uuid[] IS NULL OR s.collection_id = ANY($2::uuid[]))`;

export const COUNT_SOURCES_SQL = `SELECT count(*)::int AS total FROM sources s WHERE ${LISTED}`;

/** The listed sources, oldest first: `$3` of them from offset `$4`. */
export const SOURCE_PAGE_SQL = `
  SELECT ${SOURCE_COLUMNS} FROM sources s WHERE ${LISTED}
  ORDER BY s.created_at, s.id LIMIT $3 OFFSET $4`;

export const FIND_SOURCE_SQL = `SELECT ${SOURCE_COLUMNS} FROM sources s WHERE s.id = $1`;

/** A new source: collection, name, kind, config, schedule (minutes, null: manual). */
export const INSERT_SOURCE_SQL = `
  INSERT INTO sources (collection_id, name, kind, config, schedule_minutes, next_sync_at)
  VALUES ($1, $2, $3, $4::jsonb, $5, CASE WHEN $5::int IS NULL THEN NULL ELSE now() END)
  RETURNING id`;

/**
 * Changes source `$1`: name `$2` (null: kept), schedule (`$3` true: set to `$4`, null for manual), config
 * (`$5`, null: kept; a new config forgets the cursor, so the next sync compares every item).
 */
export const UPDATE_SOURCE_SQL = `
  UPDATE sources SET
    name = coalesce($2, name),
    schedule_minutes = CASE WHEN $3 THEN $4::int ELSE schedule_minutes END,
    next_sync_at = CASE WHEN NOT $3 THEN next_sync_at WHEN $4::int IS NULL THEN NULL
                        ELSE now() + make_interval(mins => $4::int) END,
    config = coalesce($5::jsonb, config),
    cursor = CASE WHEN $5::jsonb IS NULL THEN cursor ELSE NULL END,
    updated_at = now()
  WHERE id = $1`;

/** The latest run of each source `$1`. */
export const LATEST_RUNS_SQL = `
  SELECT DISTINCT ON (source_id) * FROM source_sync_runs
  WHERE source_id = ANY($1::uuid[]) ORDER BY source_id, started_at DESC, id DESC`;

/** Runs of source `$1`, newest first: `$2` from offset `$3`. */
export const RUN_PAGE_SQL = `
  SELECT * FROM source_sync_runs WHERE source_id = $1 ORDER BY started_at DESC, id DESC LIMIT $2 OFFSET $3`;

/**
 * A run of source `$1` begins (trigger `$2`, cursor before `$3`): runs the source left running are
 * interrupted (their worker died; only one sync of a source runs at a time), and the request is taken.
 */
export const INTERRUPT_RUNS_SQL = `
  UPDATE source_sync_runs SET status = 'interrupted', finished_at = now(),
         duration_ms = (extract(epoch FROM now() - started_at) * 1000)::int,
         error = 'The worker stopped before the sync ended (it crashed or was killed); the sync ran again.'
  WHERE source_id = $1 AND status = 'running'`;

export const START_RUN_SQL = `
  INSERT INTO source_sync_runs (source_id, status, trigger, cursor_before) VALUES ($1, 'running', $2, $3)
  RETURNING id`;

/** Run `$1` ends with status `$2` and its report. */
export const FINISH_RUN_SQL = `
  UPDATE source_sync_runs SET status = $2, finished_at = now(),
         duration_ms = (extract(epoch FROM clock_timestamp() - started_at) * 1000)::int,
         added = $3, updated = $4, unchanged = $5, deleted = $6, failed = $7, failures = $8::jsonb,
         error = $9, cursor_after = $10
  WHERE id = $1`;

/** Source `$1` reached cursor `$2`; its next scheduled sync is a period from now. */
export const SOURCE_SYNCED_SQL = `
  UPDATE sources SET cursor = $2,
         next_sync_at = CASE WHEN schedule_minutes IS NULL THEN NULL
                             ELSE now() + make_interval(mins => schedule_minutes) END
  WHERE id = $1`;

/** The sources whose schedule says a sync is due and that have none requested, at most `$1`. */
export const DUE_SOURCES_SQL = `
  SELECT s.id FROM sources s JOIN collections c ON c.id = s.collection_id
  WHERE s.next_sync_at <= now() AND c.deleting_since IS NULL
  ORDER BY s.next_sync_at LIMIT $1`;

/** The items of source `$1`. */
export const SOURCE_ITEMS_SQL = `
  SELECT i.id, i.key, i.fingerprint, i.content_hash, i.document_id, i.commit, i.link, i.error
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

/** Item `$2` of source `$1` is indexed: fingerprint `$3`, content hash `$4`, commit `$5`, link `$6`. */
export const ITEM_INDEXED_SQL = `
  UPDATE source_items SET fingerprint = $3, content_hash = $4, commit = $5, link = $6, error = NULL, synced_at = now()
  WHERE source_id = $1 AND key = $2`;

/**
 * Document `$1` now holds the item's latest bytes (hash `$2`, size `$3`, metadata `$4`, file name `$5`,
 * title `$6`).
 */
export const DOCUMENT_OF_ITEM_SQL = `
  UPDATE documents SET content_hash = $2, byte_size = $3, metadata = $4::jsonb, source_name = $5, title = $6,
         updated_at = now()
  WHERE id = $1`;

/** An unchanged item's new fingerprint (a folder file touched, not changed), commit `$4` and link `$5`. */
export const ITEM_SEEN_SQL = `
  UPDATE source_items SET fingerprint = $3, commit = coalesce($4, commit), link = coalesce($5, link), error = NULL
  WHERE source_id = $1 AND key = $2`;

/** Item `$2` of source `$1` becomes `$3` (a rename). */
export const RENAME_ITEM_SQL = `UPDATE source_items SET key = $3 WHERE source_id = $1 AND key = $2`;

export const DELETE_ITEM_SQL = `DELETE FROM source_items WHERE source_id = $1 AND key = $2`;

/**
 * Keeping a deleted source's documents: first those that would repeat the bytes of an uploaded document
 * of their collection, or of another document of the source, go (a collection holds uploaded bytes once).
 */
export const DROP_REPEATED_DOCUMENTS_SQL = `
  DELETE FROM documents d WHERE d.source_id = $1 AND (
    EXISTS (SELECT 1 FROM documents o WHERE o.collection_id = d.collection_id AND o.content_hash = d.content_hash
            AND o.source_id IS NULL)
    OR EXISTS (SELECT 1 FROM documents o WHERE o.source_id = $1 AND o.content_hash = d.content_hash AND o.id < d.id)
    OR d.status <> 'indexed')`;

export const DETACH_DOCUMENTS_SQL = `UPDATE documents SET source_id = NULL, updated_at = now() WHERE source_id = $1`;
