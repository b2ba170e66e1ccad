import type { EmbeddingStorage } from '../../../../database/embedding-storage';

/**
 * Cosine ranking with pgvector: `<=>` is cosine distance, so similarity = 1 - distance. With the HNSW
 * index (vector_cosine_ops, or halfvec_cosine_ops under EMBEDDING_STORAGE=halfvec) this is approximate;
 * `hnsw.ef_search` sets its breadth and, under a document filter, iterative scans keep returning rows
 * until the limit is met. The query vector is cast to the storage type so the index applies. Parameters:
 *   $1 query vector ('[x,y,...]')   $2 limit   $3 document ids (uuid[]; NULL = every document)
 */
export function denseSearchSql(storage: EmbeddingStorage): string {
  const cast = storage === 'halfvec' ? 'halfvec' : 'vector';
  return `
SELECT c.id AS "chunkId", 1 - (c.embedding <=> $1::${cast}) AS score
FROM chunks c
WHERE c.embedding IS NOT NULL
  AND ($3::uuid[] IS NULL OR c.document_id = ANY($3::uuid[]))
ORDER BY c.embedding <=> $1::${cast}, c.id
LIMIT $2
`;
}

/** The dense query over `vector` storage (the default). */
export const DENSE_SEARCH_SQL = denseSearchSql('vector');
