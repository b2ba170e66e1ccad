import type { BenchDatabase } from './bench-database';
import { DATABASE_SIZES_SQL } from './database-sizes.sql';

export interface DatabaseSizes {
  /** pg_total_relation_size('chunks'): heap + TOAST + every index on chunks. */
  chunksTotal: number;
  chunksHeap: number;
  chunksToast: number;
  hnswIndex: number;
  ginIndex: number;
  /** bm25_postings + bm25_term_slots + bm25_term_bounds with their indexes. */
  bm25: number;
  database: number;
  /** Average stored size of one embedding (pg_column_size): 8 + 4·D (vector) or 8 + 2·D (halfvec). */
  bytesPerVector: number;
  rows: number;
}

export async function databaseSizes(db: BenchDatabase): Promise<DatabaseSizes> {
  const [row] = await db.query<Record<string, string>>(DATABASE_SIZES_SQL);
  return {
    chunksTotal: Number(row.chunks_total),
    chunksHeap: Number(row.chunks_heap),
    chunksToast: Number(row.chunks_toast),
    hnswIndex: Number(row.hnsw_index),
    ginIndex: Number(row.gin_index),
    bm25: Number(row.bm25),
    database: Number(row.database),
    bytesPerVector: Number(row.bytes_per_vector),
    rows: Number(row.row_count),
  };
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}
