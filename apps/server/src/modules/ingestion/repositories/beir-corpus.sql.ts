/** A dataset's collection: `$n`, or the collection whose slug is "default" when null. */
const COLLECTION = (n: number) => `coalesce($${n}::uuid, default_collection_id())`;

/**
 * The documents of a dataset already indexed in a collection, with the chunking each was indexed with.
 * $1 dataset, $2 collection (null: the default one).
 */
export const INDEXED_DATASET_DOCUMENTS_SQL = `
  SELECT external_id, metadata->'chunking' AS chunking FROM documents
  WHERE metadata->>'dataset' = $1 AND status = 'indexed' AND collection_id = ${COLLECTION(2)}`;

/**
 * Dataset entries as documents to chunk, one per row ($1 titles, $2 content hashes, $3 external ids,
 * $4 byte sizes; $5 metadata, $6 MIME type), in collection $7 (null: the default one); a document already
 * in that collection (same content hash) is chunked again.
 */
export const INSERT_DATASET_DOCUMENTS_SQL = `
  INSERT INTO documents (collection_id, title, content_hash, external_id, status, byte_size, metadata, mime_type)
  SELECT ${COLLECTION(7)}, t.title, t.hash, t.external_id, 'chunking', t.size, $5::jsonb, $6
  FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS t(title, hash, external_id, size)
  ON CONFLICT (collection_id, content_hash) WHERE source_id IS NULL DO UPDATE SET status = 'chunking'
  RETURNING id, external_id`;
