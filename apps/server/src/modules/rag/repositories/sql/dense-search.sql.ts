/**
 * Cosine ranking with pgvector: `<=>` is cosine distance, so similarity = 1 - distance. With the HNSW
 * index (vector_cosine_ops) this is approximate; `hnsw.ef_search` sets its breadth and, under a document
 * filter, iterative scans keep returning rows until the limit is met. Parameters:
 *   $1 query vector ('[x,y,...]')   $2 limit   $3 document ids (uuid[]; NULL = every document)
 */
export const DENSE_SEARCH_SQL = `
SELECT c.id AS "chunkId", 1 - (c.embedding <=> $1::vector) AS score
FROM chunks c
WHERE c.embedding IS NOT NULL
  AND ($3::uuid[] IS NULL OR c.document_id = ANY($3::uuid[]))
ORDER BY c.embedding <=> $1::vector, c.id
LIMIT $2
`;
