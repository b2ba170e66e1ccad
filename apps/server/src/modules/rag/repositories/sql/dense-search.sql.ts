import type { EmbeddingStorage } from '../../../../database/pgvector';

/**
 * Extra rows the index scan returns beyond the limit, so that ties at the cut are broken by chunk id
 * among every row at the cut's distance (unless more than this many share it), as an exact scan would.
 */
export const DENSE_TIE_SLACK = 16;

/**
 * Cosine ranking with pgvector: `<=>` is cosine distance, so similarity = 1 - distance. The query vector
 * is cast to the storage type (halfvec under EMBEDDING_STORAGE=halfvec) so the index applies.
 *
 * Approximate (the default): the inner query orders by distance alone — the only order the HNSW index
 * (vector_cosine_ops / halfvec_cosine_ops) can deliver, so the planner uses it — and takes the limit plus
 * DENSE_TIE_SLACK rows; the outer query breaks ties by chunk id and applies the limit. An
 * `ORDER BY distance, id` in one query cannot be served by the index and turns into a full scan plus
 * sort on PostgreSQL. `hnsw.ef_search` sets the scan's breadth; `hnsw.iterative_scan` (set by the
 * caller) keeps it returning rows when the limit exceeds ef_search or a document filter removes rows.
 *
 * Exact (`{ exact: true }`, evaluation and the gate): one ordered scan by distance then id, no index.
 *
 * A small collection's own scan (`{ collectionScan: true }`, $4 required): its chunks are read through
 * `chunks_collection_idx` (the MATERIALIZED CTE keeps the planner from ordering the whole table's HNSW
 * graph instead) and ranked exactly. Filtered to a collection of 2,000 chunks among 300,000, the
 * installation's HNSW scan would keep about one row in 150 it visits, and may stop before k.
 *
 * Parameters: $1 query vector ('[x,y,...]')   $2 limit   $3 document ids (uuid[]; NULL = every document)
 *   $4 collection ids (uuid[]; NULL = every collection)
 */
export function denseSearchSql(
  storage: EmbeddingStorage,
  options: { exact?: boolean; collectionScan?: boolean } = {},
): string {
  const cast = storage === 'halfvec' ? 'halfvec' : 'vector';
  if (options.collectionScan) {
    return `
WITH candidates AS MATERIALIZED (
  SELECT c.id, c.embedding <=> $1::${cast} AS distance FROM chunks c
  WHERE c.collection_id = ANY($4::uuid[]) AND c.embedding IS NOT NULL
    AND ($3::uuid[] IS NULL OR c.document_id = ANY($3::uuid[]))
)
SELECT id AS "chunkId", 1 - distance AS score
FROM candidates
ORDER BY distance, id
LIMIT $2
`;
  }
  if (options.exact) {
    return `
SELECT c.id AS "chunkId", 1 - (c.embedding <=> $1::${cast}) AS score
FROM chunks c
WHERE c.embedding IS NOT NULL
  AND ($3::uuid[] IS NULL OR c.document_id = ANY($3::uuid[]))
  AND ($4::uuid[] IS NULL OR c.collection_id = ANY($4::uuid[]))
ORDER BY c.embedding <=> $1::${cast}, c.id
LIMIT $2
`;
  }
  return `
SELECT nearest."chunkId", 1 - nearest.distance AS score
FROM (
  SELECT c.id AS "chunkId", c.embedding <=> $1::${cast} AS distance
  FROM chunks c
  WHERE c.embedding IS NOT NULL
    AND ($3::uuid[] IS NULL OR c.document_id = ANY($3::uuid[]))
    AND ($4::uuid[] IS NULL OR c.collection_id = ANY($4::uuid[]))
  ORDER BY c.embedding <=> $1::${cast}
  LIMIT $2::int + ${DENSE_TIE_SLACK}
) nearest
ORDER BY nearest.distance, nearest."chunkId"
LIMIT $2
`;
}

/** The dense query over `vector` storage (the default). */
export const DENSE_SEARCH_SQL = denseSearchSql('vector');
