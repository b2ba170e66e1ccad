/** The direct handle's HNSW search width, set for a measurement and reset after it. */
export const EF_SEARCH_SQL = {
  set: `SELECT set_config('hnsw.ef_search', $1, false)`,
  reset: `RESET hnsw.ef_search`,
};

/** The plan of a query (does the dense search use the HNSW index?). */
export function explainSql(sql: string): string {
  return `EXPLAIN ${sql}`;
}
