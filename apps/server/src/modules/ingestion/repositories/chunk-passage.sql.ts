/** A chunk's columns as its document's passage list shows them (alias `c`). */
export const CHUNK_VIEW_COLUMNS = `c.id, c.ordinal, c.text, c.heading_path, c.anchor, c.span_start, c.span_end,
       c.embedding_model, c.embedding IS NOT NULL AS has_embedding`;

/**
 * Chunk `$1` with its document's id, title and collection (no row when no chunk has the id). The
 * collection is the document's: it is what decides who may read the passage.
 */
export const FIND_PASSAGE_SQL = `
  SELECT ${CHUNK_VIEW_COLUMNS}, c.document_id, d.title AS document_title, d.collection_id
  FROM chunks c JOIN documents d ON d.id = c.document_id
  WHERE c.id = $1`;

/**
 * Up to `$3` chunks of document `$1` on each side of ordinal `$2`, through the (document_id, ordinal)
 * key: `side` says which; each side is in order of distance from the ordinal.
 */
export const PASSAGE_NEIGHBOURS_SQL = `
  (SELECT ${CHUNK_VIEW_COLUMNS}, 'before' AS side FROM chunks c
   WHERE c.document_id = $1 AND c.ordinal < $2 ORDER BY c.ordinal DESC LIMIT $3)
  UNION ALL
  (SELECT ${CHUNK_VIEW_COLUMNS}, 'after' AS side FROM chunks c
   WHERE c.document_id = $1 AND c.ordinal > $2 ORDER BY c.ordinal LIMIT $3)`;
