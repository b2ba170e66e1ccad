import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Why an offline follow-up was searched as it was (alone, or with the earlier question added, and why):
 * stored with its retrieval trace. Null for first questions, model rewrites and older traces.
 */
export class FollowUpReason1764500090000 implements MigrationInterface {
  name = 'FollowUpReason1764500090000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE retrieval_traces ADD COLUMN rewrite_reason text
        CHECK (rewrite_reason IN ('stands-alone', 'refers-back', 'no-salient-terms', 'low-answerability'))
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE retrieval_traces DROP COLUMN rewrite_reason`);
  }
}
