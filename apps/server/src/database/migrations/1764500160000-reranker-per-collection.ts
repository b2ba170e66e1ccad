import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A fitted reranker serves the collection of the bank it was fitted on: at most one active model per
 * collection (it was one for the whole installation), used by searches of that collection alone.
 */
export class RerankerPerCollection1764500160000 implements MigrationInterface {
  name = 'RerankerPerCollection1764500160000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX reranker_models_one_active_idx`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX reranker_models_one_active_idx ON reranker_models (collection_id) WHERE active`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // One active model for the installation again: the newest of those active.
    await queryRunner.query(`
      UPDATE reranker_models SET active = false
      WHERE active AND id <> (SELECT id FROM reranker_models WHERE active ORDER BY finished_at DESC NULLS LAST, id LIMIT 1)`);
    await queryRunner.query(`DROP INDEX reranker_models_one_active_idx`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX reranker_models_one_active_idx ON reranker_models (active) WHERE active`,
    );
  }
}
