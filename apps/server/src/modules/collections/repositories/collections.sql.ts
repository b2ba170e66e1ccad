/** Every collection, oldest first, with whether a deletion job is removing it. */
export const COLLECTION_STATES_SQL = `
  SELECT id, deleting_since IS NOT NULL AS deleting FROM collections ORDER BY created_at, id`;

/** The collection with slug `$1`, when it exists. */
export const COLLECTION_BY_SLUG_SQL = `SELECT id, deleting_since IS NOT NULL AS deleting FROM collections WHERE slug = $1`;

/** Collection `$1`: whether it exists and is being deleted. */
export const COLLECTION_STATE_SQL = `SELECT id, deleting_since IS NOT NULL AS deleting FROM collections WHERE id = $1`;

/** A collection as the API shows it (CollectionRow): its counts are read when it is read. */
const COLLECTION_VIEW = `
  SELECT c.id, c.name, c.slug, c.description, c.deleting_since IS NOT NULL AS deleting,
         c.created_at, c.updated_at,
         (SELECT count(*)::int FROM documents d WHERE d.collection_id = c.id) AS document_count,
         (SELECT coalesce(sum(s.chunk_count), 0)::int FROM bm25_corpus_slots s
          WHERE s.collection_id = c.id) AS chunk_count,
         (SELECT count(*)::int FROM question_banks b WHERE b.collection_id = c.id) AS bank_count
  FROM collections c`;

/**
 * Collections whose name matches `$1` (an ILIKE pattern, or null: any) and that are among `$2` (those
 * the caller may read; null: every one).
 */
const LISTED = `($1::text IS NULL OR c.name ILIKE $1 ESCAPE '\\') AND ($2::uuid[] IS NULL OR c.id = ANY($2::uuid[]))`;

export const COUNT_COLLECTIONS_SQL = `SELECT count(*)::int AS total FROM collections c WHERE ${LISTED}`;

/** The listed collections, oldest first: `$3` of them from offset `$4`. */
export const COLLECTION_PAGE_SQL = `${COLLECTION_VIEW} WHERE ${LISTED}
  ORDER BY c.created_at, c.id LIMIT $3 OFFSET $4`;

/** Collection `$1` as the API shows it. */
export const COLLECTION_VIEW_SQL = `${COLLECTION_VIEW} WHERE c.id = $1`;

/** A new collection (`$1` name, `$2` slug, `$3` description); no row when the slug is taken. */
export const INSERT_COLLECTION_SQL = `
  INSERT INTO collections (name, slug, description) VALUES ($1, $2, $3)
  ON CONFLICT ON CONSTRAINT collections_slug_key DO NOTHING
  RETURNING id`;

/** Whether another collection than `$1` has slug `$2`. */
export const SLUG_TAKEN_SQL = `SELECT EXISTS (SELECT 1 FROM collections WHERE slug = $2 AND id <> $1) AS taken`;

/** Renames, re-slugs or describes collection `$1` (null: unchanged) unless it is being deleted. */
export const UPDATE_COLLECTION_SQL = `
  UPDATE collections SET name = coalesce($2, name), slug = coalesce($3, slug),
                         description = coalesce($4, description), updated_at = now()
  WHERE id = $1 AND deleting_since IS NULL
  RETURNING id`;

/** Marks collection `$1` as being deleted, unless it already is (no row then). */
export const MARK_DELETING_SQL = `
  UPDATE collections SET deleting_since = now(), updated_at = now()
  WHERE id = $1 AND deleting_since IS NULL
  RETURNING id`;

/** Collection `$1` is not being deleted after all (its deletion job could not be queued). */
export const UNMARK_DELETING_SQL = `
  UPDATE collections SET deleting_since = NULL, updated_at = now() WHERE id = $1`;

/** Collections marked for deletion more than `$1` ms ago, oldest first (`$2` at most): the reconciler's. */
export const STRANDED_DELETIONS_SQL = `
  SELECT id FROM collections
  WHERE deleting_since < now() - make_interval(secs => $1::double precision / 1000)
  ORDER BY deleting_since LIMIT $2`;
