/** Every collection, oldest first, with whether a deletion job is removing it. */
export const COLLECTION_STATES_SQL = `
  SELECT id, deleting_since IS NOT NULL AS deleting FROM collections ORDER BY created_at, id`;

/** Of collection ids `$1`, those that exist and are not being deleted. */
export const SEARCHABLE_AMONG_SQL = `
  SELECT id FROM collections WHERE id = ANY($1::uuid[]) AND deleting_since IS NULL`;

/** The collection with slug `$1`, when it exists. */
export const COLLECTION_BY_SLUG_SQL = `SELECT id, deleting_since IS NOT NULL AS deleting FROM collections WHERE slug = $1`;

/** Collection `$1`: whether it exists and is being deleted. */
export const COLLECTION_STATE_SQL = `SELECT id, deleting_since IS NOT NULL AS deleting FROM collections WHERE id = $1`;
