import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The answerability decision in every retrieval trace, and the answer figures (false refusals, false
 * answers, AUC, answer support) of evaluation runs. Older rows keep null: they were made without them.
 */
export class Answerability1764500040000 implements MigrationInterface {
  name = 'Answerability1764500040000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE retrieval_traces ADD COLUMN answerability jsonb`);
    await queryRunner.query(`ALTER TABLE eval_runs ADD COLUMN answers jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE eval_runs DROP COLUMN answers`);
    await queryRunner.query(`ALTER TABLE retrieval_traces DROP COLUMN answerability`);
  }
}
