/** The Feedback page's chart: per UTC day, over answers and ratings a reviewer may see. */

/**
 * Each UTC day's completed answers and refusals from `$1` (inclusive) on, over the traces of answers
 * (filters `$2` a collection searched, `$3` the collections the reader manages, as QUEUE_WHERE).
 */
export const DAILY_ANSWERS_SQL = `
  SELECT to_char(date_trunc('day', t.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day,
         count(*)::int AS answers,
         count(*) FILTER (WHERE t.not_found)::int AS not_found
  FROM retrieval_traces t
  JOIN messages m ON m.id = t.message_id AND m.status = 'complete'
  WHERE t.created_at >= $1::timestamptz
    AND ($2::uuid IS NULL OR $2::uuid = ANY (t.collection_ids))
    AND ($3::uuid[] IS NULL OR (cardinality(t.collection_ids) > 0 AND t.collection_ids <@ $3::uuid[]))
  GROUP BY 1`;

/** Each UTC day's ratings up and down from `$1` on (filters as DAILY_ANSWERS_SQL). */
export const DAILY_RATINGS_SQL = `
  SELECT to_char(date_trunc('day', f.updated_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day,
         count(*) FILTER (WHERE f.rating = 'up')::int AS up,
         count(*) FILTER (WHERE f.rating = 'down')::int AS down
  FROM message_feedback f
  WHERE f.updated_at >= $1::timestamptz
    AND ($2::uuid IS NULL OR $2::uuid = ANY (f.collection_ids))
    AND ($3::uuid[] IS NULL OR (cardinality(f.collection_ids) > 0 AND f.collection_ids <@ $3::uuid[]))
  GROUP BY 1`;
