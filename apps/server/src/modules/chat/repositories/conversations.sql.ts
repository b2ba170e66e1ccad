/** A conversation with its message count: the columns every conversation read answers with. */
const CONVERSATION_SUMMARY = `
  SELECT c.id, c.title, c.collection_ids::text[] AS collection_ids, c.created_at, c.updated_at,
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

/**
 * Conversations of key `$3` whose title or any message contains `$4` (an ILIKE pattern, wildcards of the
 * search text escaped), most recently updated first: `$1` of them from offset `$2`. The trigram indexes on
 * `conversations.title` and `messages.content` serve both ILIKEs.
 */
export const CONVERSATION_SEARCH_SQL = `${CONVERSATION_SUMMARY}
  WHERE c.owner_key_id = $3
    AND (c.title ILIKE $4 OR c.id IN (SELECT m.conversation_id FROM messages m WHERE m.content ILIKE $4))
  ORDER BY c.updated_at DESC, c.id
  LIMIT $1 OFFSET $2`;

/** How many conversations CONVERSATION_SEARCH_SQL finds for key `$1` and pattern `$2`. */
export const CONVERSATION_SEARCH_COUNT_SQL = `
  SELECT count(*)::int AS total FROM conversations c
  WHERE c.owner_key_id = $1
    AND (c.title ILIKE $2 OR c.id IN (SELECT m.conversation_id FROM messages m WHERE m.content ILIKE $2))`;

/** The owner's conversations holding a complete answer with exactly this text, the newest answer first. */
export const CONVERSATIONS_ANSWERED_WITH_SQL = `
  SELECT m.conversation_id
  FROM messages m
  JOIN conversations c ON c.id = m.conversation_id
  WHERE c.owner_key_id = $1 AND m.role = 'assistant' AND m.status = 'complete' AND m.content = $2
  ORDER BY m.created_at DESC
  LIMIT $3`;

/**
 * The text of chunks `$1` (uuid[]) that still exist: the passages earlier answers cited, which an offline
 * follow-up is searched with.
 */
export const CITED_PASSAGES_SQL = `
  SELECT id, text FROM chunks WHERE id = ANY($1::uuid[])`;
