import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The adaptive-expansion decision in every retrieval trace that asked for an adaptive branch: the
 * policy's version, its confidence and threshold, and which branches ran or were skipped. Older rows
 * keep null: nothing was adaptive then.
 */
export class AdaptiveExpansion1764500060000 implements MigrationInterface {
  name = 'AdaptiveExpansion1764500060000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE retrieval_traces ADD COLUMN adaptive jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE retrieval_traces DROP COLUMN adaptive`);
  }
}
