import { FEEDBACK_TOP_PASSAGES } from '@lumina/shared';
import { FEEDBACK_COLUMNS } from './feedback.sql';

/**
 * The review queue's filters, over `message_feedback f`:
 * `$1` rating, `$2` reason, `$3` from, `$4` to (rated in [from, to)), `$5` a collection the answer
 * searched, `$6` only unreviewed, `$7` the collections the reader manages (null: every one). A reader
 * who is not an admin sees feedback on answers that searched only collections it manages (an answer
 * from general knowledge searched none: admins only).
 */
const QUEUE_WHERE = `
  WHERE ($1::text IS NULL OR f.rating = $1::text)
    AND ($2::text IS NULL OR $2::text = ANY (f.reasons))
    AND ($3::timestamptz IS NULL OR f.updated_at >= $3::timestamptz)
    AND ($4::timestamptz IS NULL OR f.updated_at < $4::timestamptz)
    AND ($5::uuid IS NULL OR $5::uuid = ANY (f.collection_ids))
    AND (NOT $6::boolean OR f.reviewed_at IS NULL)
    AND ($7::uuid[] IS NULL OR (cardinality(f.collection_ids) > 0 AND f.collection_ids <@ $7::uuid[]))`;

/** The whole of a queue entry: feedback, answer, question, trace and the bank item made from it. */
const ENTRY_SELECT = `
  SELECT ${FEEDBACK_COLUMNS},
         m.conversation_id, m.content AS answer, m.status, m.not_found, m.citations,
         q.content AS question,
         t.standalone_query, t.settings, t.answerability,
         (SELECT coalesce(jsonb_agg(e.value ORDER BY e.ord), '[]'::jsonb)
            FROM jsonb_array_elements(t.retrieved) WITH ORDINALITY AS e (value, ord)
           WHERE e.ord <= ${FEEDBACK_TOP_PASSAGES}) AS top_retrieved,
         i.id AS item_id, i.bank_id AS item_bank_id
  FROM message_feedback f
  JOIN messages m ON m.id = f.message_id
  LEFT JOIN messages q ON q.id = m.reply_to_id
  LEFT JOIN retrieval_traces t ON t.message_id = m.id
  LEFT JOIN LATERAL (
    SELECT qi.id, qi.bank_id FROM question_bank_items qi WHERE qi.feedback_id = f.id ORDER BY qi.seq LIMIT 1
  ) i ON true`;

/** A page of the queue (filters as QUEUE_WHERE), most recently rated first: `$8` rows from offset `$9`. */
export const QUEUE_PAGE_SQL = `${ENTRY_SELECT}
  ${QUEUE_WHERE}
  ORDER BY f.updated_at DESC, f.id
  LIMIT $8 OFFSET $9`;

/** How many entries the queue's filters find. */
export const QUEUE_COUNT_SQL = `
  SELECT count(*)::int AS total FROM message_feedback f
  ${QUEUE_WHERE}`;

/** The entries with these ids (`$1`). */
export const ENTRIES_SQL = `${ENTRY_SELECT}
  WHERE f.id = ANY ($1::uuid[])`;

/** The text, heading path and document title of passages `$1` (those still stored). */
export const PASSAGES_SQL = `
  SELECT c.id::text AS id, c.text, c.heading_path, d.title
  FROM chunks c JOIN documents d ON d.id = c.document_id
  WHERE c.id = ANY ($1::uuid[])`;

/** Marks feedback `$1` reviewed (a review already made keeps its time). */
export const MARK_REVIEWED_SQL = `
  UPDATE message_feedback SET reviewed_at = coalesce(reviewed_at, now()) WHERE id = ANY ($1::uuid[])`;
