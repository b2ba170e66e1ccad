/** How many chunks the index holds. */
export const COUNT_CHUNKS_SQL = `SELECT count(*)::int AS chunks FROM chunks`;

/** Forget cached vectors by key ($1 text[]): a new query is not in the embedding cache. */
export const FORGET_CACHED_VECTORS_SQL = `DELETE FROM embedding_cache WHERE key = ANY($1::text[])`;

/** How many distinct terms the BM25 vocabulary holds (summed over the writers' slots). */
export const COUNT_TERMS_SQL = `SELECT count(DISTINCT term)::int AS terms FROM bm25_term_slots`;
