import type { MigrationInterface, QueryRunner } from 'typeorm';
import { convertEmbeddingStorageSql, EMBEDDING_STORAGE_MIGRATION } from '../pgvector';
import type { EmbeddingStorage } from '../pgvector';

/**
 * Stores the chunks' vectors as the configured EMBEDDING_STORAGE: with `halfvec` the column becomes
 * halfvec(D) and the HNSW index is rebuilt with halfvec_cosine_ops; with `vector` (the initial schema's
 * type) nothing changes. `down` always returns to vector(D) with vector_cosine_ops. Existing vectors are
 * converted in place (half precision keeps about 3 significant digits per component).
 */
export function createEmbeddingStorageMigration(
  dimension: number,
  storage: EmbeddingStorage,
): new () => MigrationInterface {
  // Validate now, not when the migration runs.
  const up = convertEmbeddingStorageSql(storage, dimension);
  const down = convertEmbeddingStorageSql('vector', dimension);
  return class EmbeddingStorage1764500004000 implements MigrationInterface {
    name = EMBEDDING_STORAGE_MIGRATION;

    async up(queryRunner: QueryRunner): Promise<void> {
      if ((await storedType(queryRunner)) === storage) return;
      for (const statement of up) await queryRunner.query(statement);
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      if ((await storedType(queryRunner)) === 'vector') return;
      for (const statement of down) await queryRunner.query(statement);
    }
  };
}

async function storedType(queryRunner: QueryRunner): Promise<string | undefined> {
  const rows: { type: string }[] = await queryRunner.query(
    `SELECT t.typname AS type FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
     WHERE a.attrelid = 'chunks'::regclass AND a.attname = 'embedding' AND NOT a.attisdropped`,
  );
  return rows[0]?.type;
}
