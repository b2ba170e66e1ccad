import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A follow-up that points back is now searched both alone and with the earlier question, and the more
 * answerable search leads: `alone-leads` records the case where the question's own search led. Down
 * turns those traces into `stands-alone` (the nearest older reason) before restoring the older check.
 */
export class FollowUpAloneLeads1764500110000 implements MigrationInterface {
  name = 'FollowUpAloneLeads1764500110000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE retrieval_traces DROP CONSTRAINT IF EXISTS retrieval_traces_rewrite_reason_check`,
    );
    await queryRunner.query(`
      ALTER TABLE retrieval_traces ADD CONSTRAINT retrieval_traces_rewrite_reason_check
        CHECK (rewrite_reason IN
          ('stands-alone', 'refers-back', 'alone-leads', 'no-salient-terms', 'low-answerability'))
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE retrieval_traces SET rewrite_reason = 'stands-alone' WHERE rewrite_reason = 'alone-leads'`,
    );
    await queryRunner.query(
      `ALTER TABLE retrieval_traces DROP CONSTRAINT IF EXISTS retrieval_traces_rewrite_reason_check`,
    );
    await queryRunner.query(`
      ALTER TABLE retrieval_traces ADD CONSTRAINT retrieval_traces_rewrite_reason_check
        CHECK (rewrite_reason IN ('stands-alone', 'refers-back', 'no-salient-terms', 'low-answerability'))
    `);
  }
}
