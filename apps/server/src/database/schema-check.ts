import type { DataSource } from 'typeorm';
import { convertEmbeddingStorageSql, EMBEDDING_STORAGE_MIGRATION, EMBEDDING_STORAGES } from './pgvector';
import type { EmbeddingStorage } from './pgvector';
import { EMBEDDER_STATE_SQL } from './embedder-switch.sql';
import { EMBEDDING_COLUMN_SQL, EMBEDDING_DIMENSION_SQL, MIGRATION_PENDING_SQL } from './schema-check.sql';

const SWITCH_REMEDY =
  'The process that runs the migrations (DATABASE_MIGRATIONS_RUN=true, the API by default) adopts a new ' +
  'embedder when it starts and re-embeds the chunks: start it with this configuration first, or give this ' +
  "process the database's embedder.";

/**
 * In a process that does not run the migrations (a separate worker): refuse to start when the stored
 * vectors are not the configured embedder's, by width or by model. Adopting another embedder is the
 * migrating process's job (database/embedder-switch.ts).
 */
export async function assertEmbedder(
  dataSource: DataSource,
  expected: { model: string; dimension: number },
): Promise<void> {
  const rows: { dimension: number }[] = await dataSource.query(EMBEDDING_DIMENSION_SQL);
  const actual = rows[0]?.dimension;
  if (actual !== undefined && actual !== expected.dimension) {
    throw new Error(
      `The database stores ${actual}-dimensional chunk vectors but the configured embedder returns ${expected.dimension}. ` +
        SWITCH_REMEDY,
    );
  }
  const state: { model: string | null }[] = await dataSource.query(EMBEDDER_STATE_SQL).catch(() => []); // before the embedder_state migration: nothing recorded
  const model = state[0]?.model ?? null;
  if (model !== null && model !== expected.model) {
    throw new Error(
      `The database's chunk vectors are ${model}'s but this process embeds with ${expected.model}. ` +
        SWITCH_REMEDY,
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
