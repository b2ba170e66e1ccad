import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which embedding model the chunks' vectors come from, so that a server started with another embedder
 * re-embeds instead of refusing to start or, worse, ranking one model's query vector against another's
 * passage vectors (two models of the same width fit the same column).
 *
 *   embedder_state (one row): model (null until the first vector), reembed_pending, reembed_done,
 *   reembed_total, changed_at
 *
 * The row is seeded from a chunk's `embedding_model`. The process that runs the migrations compares it with
 * the configured embedder at each start (database/embedder-switch.ts); the re-embed job keeps its progress
 * here, so /health and the web app can show it without asking the queue.
 */
export class EmbedderState1764500200000 implements MigrationInterface {
  name = 'EmbedderState1764500200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE embedder_state (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        model text,
        reembed_pending boolean NOT NULL DEFAULT false,
        reembed_done integer NOT NULL DEFAULT 0 CHECK (reembed_done >= 0),
        reembed_total integer NOT NULL DEFAULT 0 CHECK (reembed_total >= 0),
        changed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      INSERT INTO embedder_state (id, model)
      SELECT 1, (SELECT embedding_model FROM chunks WHERE embedding_model IS NOT NULL LIMIT 1)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS embedder_state`);
  }
}
