/** Documents `$1` of collection `$2` with their status and chunk count (the ones that exist). */
export const DOCUMENT_CHUNK_COUNTS_SQL = `
  SELECT d.id, d.status, (SELECT count(*) FROM chunks c WHERE c.document_id = d.id)::int AS chunks
  FROM documents d WHERE d.id = ANY($1::uuid[]) AND d.collection_id = $2::uuid`;

/** Every chunk of documents `$1` with its document's title, in reading order, document by document. */
export const PASSAGES_SQL = `
  SELECT c.id AS chunk_id, c.document_id, c.ordinal, c.text, c.heading_path, d.title
  FROM chunks c JOIN documents d ON d.id = c.document_id
  WHERE c.document_id = ANY($1::uuid[]) ORDER BY c.document_id, c.ordinal`;

/** Documents whose external id is one of `$1`, within dataset `$2` and collection `$3` (null: any), by id. */
export const DOCUMENTS_BY_EXTERNAL_ID_SQL = `
  SELECT id, external_id FROM documents
  WHERE external_id = ANY($1::text[]) AND ($2::text IS NULL OR metadata->>'dataset' = $2)
    AND ($3::uuid IS NULL OR collection_id = $3::uuid)
  ORDER BY id`;
