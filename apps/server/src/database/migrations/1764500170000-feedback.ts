import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The reasons a rating may give, as the feedback contract lists them (libs/shared feedback.ts). */
const REASONS = [
  'wrong',
  'incomplete',
  'wrong_citation',
  'should_have_refused',
  'wrongly_refused',
  'outdated',
];

/**
 * Feedback on answers: one rating per answer and key (a new rating replaces it), with the reasons a
 * thumbs-down gives and a note. `collection_ids` are the collections the answer searched (copied from its
 * retrieval trace), so the review queue of a collection's write holders reads this table alone.
 * `key_id` has no foreign key, like a conversation's owner: feedback outlives its key.
 *
 * Feedback goes with its answer (and so with its conversation). A bank item made from feedback keeps its
 * question and loses the link (`question_bank_items.feedback_id`, set null). Items made from feedback
 * have the source 'feedback'.
 */
export class Feedback1764500170000 implements MigrationInterface {
  name = 'Feedback1764500170000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const reasons = REASONS.map((reason) => `'${reason}'`).join(', ');
    await queryRunner.query(`
      CREATE TABLE message_feedback (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        message_id uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        key_id uuid NOT NULL,
        rating text NOT NULL CHECK (rating IN ('up', 'down')),
        reasons text[] NOT NULL DEFAULT '{}' CHECK (reasons <@ ARRAY[${reasons}]::text[]),
        note text CHECK (length(note) <= 2000),
        collection_ids uuid[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        reviewed_at timestamptz,
        CONSTRAINT message_feedback_up_without_reasons CHECK (rating = 'down' OR cardinality(reasons) = 0),
        CONSTRAINT message_feedback_message_key UNIQUE (message_id, key_id)
      )`);
    await queryRunner.query(
      `CREATE INDEX message_feedback_updated_idx ON message_feedback (updated_at DESC, id)`,
    );
    await queryRunner.query(`
      ALTER TABLE question_bank_items
        ADD COLUMN feedback_id uuid REFERENCES message_feedback (id) ON DELETE SET NULL`);
    await queryRunner.query(
      `CREATE INDEX question_bank_items_feedback_idx ON question_bank_items (feedback_id) WHERE feedback_id IS NOT NULL`,
    );
    await queryRunner.query(`
      ALTER TABLE question_bank_items
        DROP CONSTRAINT question_bank_items_source_check,
        ADD CONSTRAINT question_bank_items_source_check
          CHECK (source IN ('manual', 'generated', 'imported', 'feedback'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Items made from feedback stay, as manual items: the question was typed by a person.
    await queryRunner.query(`UPDATE question_bank_items SET source = 'manual' WHERE source = 'feedback'`);
    await queryRunner.query(`
      ALTER TABLE question_bank_items
        DROP CONSTRAINT question_bank_items_source_check,
        ADD CONSTRAINT question_bank_items_source_check CHECK (source IN ('manual', 'generated', 'imported'))`);
    await queryRunner.query(`ALTER TABLE question_bank_items DROP COLUMN feedback_id`);
    await queryRunner.query(`DROP TABLE message_feedback`);
  }
}
