/** A collection for the bench's small corpus; answers its id. */
export const CREATE_SMALL_COLLECTION_SQL = `
  INSERT INTO collections (name, slug) VALUES ('Bench small', 'bench-small') RETURNING id`;

/** Documents `$1` and their chunks into collection `$2` (the BM25 triggers move postings and statistics). */
export const MOVE_DOCUMENTS_SQL = [
  `UPDATE documents SET collection_id = $2 WHERE id = ANY($1::uuid[])`,
  `UPDATE chunks SET collection_id = $2 WHERE document_id = ANY($1::uuid[])`,
];

/** How many chunks each collection holds. */
export const CHUNKS_BY_COLLECTION_SQL = `
  SELECT collection_id AS id, count(*)::int AS chunks FROM chunks GROUP BY collection_id ORDER BY 2`;
