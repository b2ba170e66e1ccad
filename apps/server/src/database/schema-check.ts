import type { DataSource } from 'typeorm';
import { convertEmbeddingStorageSql, EMBEDDING_STORAGE_MIGRATION, EMBEDDING_STORAGES } from './pgvector';
import type { EmbeddingStorage } from './pgvector';
import { EMBEDDING_COLUMN_SQL, EMBEDDING_DIMENSION_SQL, MIGRATION_PENDING_SQL } from './schema-check.sql';

/** Refuse to start when the stored vectors' width is not the configured embedder's. */
export async function assertEmbeddingDimension(dataSource: DataSource, expected: number): Promise<void> {
  const rows: { dimension: number }[] = await dataSource.query(EMBEDDING_DIMENSION_SQL);
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
  const rows: { type: string; dimension: number }[] = await dataSource.query(EMBEDDING_COLUMN_SQL);
  const stored = rows[0];
  if (stored === undefined || stored.type === expected) return;
  const [{ pending }]: { pending: boolean }[] = await dataSource.query(MIGRATION_PENDING_SQL, [
    EMBEDDING_STORAGE_MIGRATION,
  ]);
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
