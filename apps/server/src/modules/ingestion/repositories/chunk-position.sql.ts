/**
 * Where chunk `$2` stands among the chunks of document `$1`: how many come before it in reading order
 * (no row when the chunk is not one of the document's).
 */
export const CHUNK_POSITION_SQL = `
  SELECT (SELECT count(*)::int FROM chunks other
          WHERE other.document_id = $1 AND other.ordinal < target.ordinal) AS before
  FROM chunks target
  WHERE target.id = $2 AND target.document_id = $1`;
