/** The columns of a feedback row every read answers with. */
export const FEEDBACK_COLUMNS = `
  f.id, f.message_id, f.key_id, f.rating, f.reasons::text[] AS reasons, f.note,
  f.collection_ids::text[] AS collection_ids, f.created_at, f.updated_at, f.reviewed_at`;

/**
 * Rates answer `$1` as key `$2`: rating `$3`, reasons `$4`, note `$5`, the collections the answer
 * searched `$6`. A second rating by the same key replaces the first; a changed rating is to be reviewed
 * again, an identical one keeps its review.
 */
export const UPSERT_FEEDBACK_SQL = `
  INSERT INTO message_feedback AS f (message_id, key_id, rating, reasons, note, collection_ids)
  VALUES ($1, $2, $3, $4::text[], $5, $6::uuid[])
  ON CONFLICT (message_id, key_id) DO UPDATE SET
    rating = EXCLUDED.rating,
    reasons = EXCLUDED.reasons,
    note = EXCLUDED.note,
    collection_ids = EXCLUDED.collection_ids,
    updated_at = now(),
    reviewed_at = CASE
      WHEN (f.rating, f.reasons, f.note) IS NOT DISTINCT FROM (EXCLUDED.rating, EXCLUDED.reasons, EXCLUDED.note)
      THEN f.reviewed_at
    END
  RETURNING ${FEEDBACK_COLUMNS}`;

/** Key `$2`'s feedback on message `$1`. */
export const KEY_FEEDBACK_SQL = `
  SELECT ${FEEDBACK_COLUMNS} FROM message_feedback f WHERE f.message_id = $1 AND f.key_id = $2`;

/** Deletes key `$2`'s feedback on message `$1`. */
export const DELETE_KEY_FEEDBACK_SQL = `
  DELETE FROM message_feedback WHERE message_id = $1 AND key_id = $2 RETURNING id`;

/** The newest answer replying to question `$1`, whatever its status. */
export const ANSWER_OF_QUESTION_SQL = `
  SELECT id, status FROM messages WHERE reply_to_id = $1 AND role = 'assistant' ORDER BY seq DESC LIMIT 1`;
