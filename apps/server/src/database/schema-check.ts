import type { DataSource } from 'typeorm';
import {
  convertEmbeddingStorageSql,
  EMBEDDING_STORAGE_MIGRATION,
  EMBEDDING_STORAGES,
} from './embedding-storage';
import type { EmbeddingStorage } from './embedding-storage';

/** Refuse to start when the stored vectors' width is not the configured embedder's. */
export async function assertEmbeddingDimension(dataSource: DataSource, expected: number): Promise<void> {
  const rows: { dimension: number }[] = await dataSource.query(
    `SELECT atttypmod AS dimension FROM pg_attribute
     WHERE attrelid = 'chunks'::regclass AND attname = 'embedding' AND NOT attisdropped`,
  );
  const actual = rows[0]?.dimension;
  if (actual !== undefined && actual !== expected) {
    throw new Error(
      `The database stores ${actual}-dimensional chunk vectors but the configured embedder returns ${expected}. ` +
        'Point PGLITE_DATA_DIR/DATABASE_URL at a database made for this embedder, or re-create it.',
    );
  }
}

/**
 * Refuse to start when the chunks' vectors are stored as another type than EMBEDDING_STORAGE says
 * (the search casts its query vectors to the configured type, which must be the index's).
 */
export async function assertEmbeddingStorage(
  dataSource: DataSource,
  expected: EmbeddingStorage,
): Promise<void> {
  const rows: { type: string; dimension: number }[] = await dataSource.query(
    `SELECT t.typname AS type, a.atttypmod AS dimension
     FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
     WHERE a.attrelid = to_regclass('chunks') AND a.attname = 'embedding' AND NOT a.attisdropped`,
  );
  const stored = rows[0];
  if (stored === undefined || stored.type === expected) return;
  const [{ pending }]: { pending: boolean }[] = await dataSource.query(
    `SELECT to_regclass('migrations') IS NULL
            OR NOT EXISTS (SELECT 1 FROM migrations WHERE name = $1) AS pending`,
    [EMBEDDING_STORAGE_MIGRATION],
  );
  const remedy = pending
    ? 'The migration that converts them has not run yet: run the migrations (npm run db:migrate).'
    : `Set EMBEDDING_STORAGE=${stored.type}` +
      (EMBEDDING_STORAGES.includes(stored.type as EmbeddingStorage)
        ? ', or convert the stored vectors (rewrites the chunks table and rebuilds its HNSW index): ' +
          convertEmbeddingStorageSql(expected, stored.dimension).join('; ')
        : '') +
      '.';
  throw new Error(
    `The database stores chunk vectors as ${stored.type}(${stored.dimension}) but EMBEDDING_STORAGE=${expected}. ` +
      remedy,
  );
}
