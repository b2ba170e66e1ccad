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
