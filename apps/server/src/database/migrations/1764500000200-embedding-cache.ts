import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Vectors keyed by sha256(model id, dimension, max input length, text): a passage is embedded once per
 * model, whichever document, re-upload or evaluation run asks for it. The column is an untyped
 * `vector` so several models (and dimensions) can share the cache.
 */
export class EmbeddingCache1764500000200 implements MigrationInterface {
  name = 'EmbeddingCache1764500000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE embedding_cache (
        key text PRIMARY KEY,
        model text NOT NULL,
        dimension integer NOT NULL CHECK (dimension > 0),
        embedding vector NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS embedding_cache`);
  }
}
