/** A conversation with its message count: the columns every conversation read answers with. */
const CONVERSATION_SUMMARY = `
  SELECT c.id, c.title, c.created_at, c.updated_at,
         (SELECT count(*)::int FROM messages m WHERE m.conversation_id = c.id) AS message_count
  FROM conversations c`;

/** Conversation `$1` if key `$2` owns it (no row otherwise). */
export const CONVERSATION_SQL = `${CONVERSATION_SUMMARY}
  WHERE c.id = $1 AND c.owner_key_id = $2`;

/** The conversations of key `$3`, most recently updated first: `$1` of them from offset `$2`. */
export const CONVERSATION_PAGE_SQL = `${CONVERSATION_SUMMARY}
  WHERE c.owner_key_id = $3
  ORDER BY c.updated_at DESC, c.id
  LIMIT $1 OFFSET $2`;
