/**
 * Each collection with its documents by status and its chunks (kept in the BM25 statistics slots, so a
 * scrape does not count the chunks table).
 */
export const COLLECTION_STATS_SQL = `
  SELECT c.id, c.slug, c.deleting_since IS NOT NULL AS deleting,
         coalesce((SELECT jsonb_object_agg(s.status, s.n) FROM (
           SELECT d.status, count(*)::int AS n FROM documents d WHERE d.collection_id = c.id GROUP BY d.status
         ) s), '{}'::jsonb) AS documents,
         (SELECT coalesce(sum(s.chunk_count), 0)::bigint FROM bm25_corpus_slots s
          WHERE s.collection_id = c.id) AS chunks
  FROM collections c
  ORDER BY c.created_at, c.id`;
