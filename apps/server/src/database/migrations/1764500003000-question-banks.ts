import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Question templates, question banks and their items (the users' own gold sets), and the evaluation
 * runs of a bank. A bank's template is optional (deleting a template leaves its banks with none);
 * a bank's items and runs go with it. `seq` keeps items in the order they were written, so a bank
 * imported from a BEIR split is evaluated in queries.jsonl order, exactly as the eval command does.
 */
export class QuestionBanks1764500003000 implements MigrationInterface {
  name = 'QuestionBanks1764500003000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE question_templates (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        kind text NOT NULL
          CHECK (kind IN ('definition', 'scenario', 'procedure', 'out-of-scope', 'cross-lingual')),
        description text,
        prompt_template text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX question_templates_created_at_idx ON question_templates (created_at DESC, id)`,
    );
    await queryRunner.query(`
      CREATE TABLE question_banks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        description text,
        template_id uuid REFERENCES question_templates (id) ON DELETE SET NULL,
        tags text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX question_banks_template_idx ON question_banks (template_id)`);
    await queryRunner.query(
      `CREATE INDEX question_banks_created_at_idx ON question_banks (created_at DESC, id)`,
    );
    await queryRunner.query(`
      CREATE TABLE question_bank_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        bank_id uuid NOT NULL REFERENCES question_banks (id) ON DELETE CASCADE,
        question text NOT NULL CHECK (length(btrim(question)) > 0),
        expected_answer text,
        in_scope boolean NOT NULL DEFAULT true,
        expected_sources jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(expected_sources) = 'array'),
        language text NOT NULL DEFAULT 'en',
        tags text[] NOT NULL DEFAULT '{}',
        difficulty text CHECK (difficulty IN ('easy', 'medium', 'hard')),
        source text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'generated', 'imported')),
        generator text CHECK (generator IN ('template', 'llm')),
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX question_bank_items_bank_seq_idx ON question_bank_items (bank_id, seq)`,
    );
    await queryRunner.query(
      `CREATE INDEX question_bank_items_tags_idx ON question_bank_items USING gin (tags)`,
    );
    await queryRunner.query(`
      CREATE TABLE eval_runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        bank_id uuid NOT NULL REFERENCES question_banks (id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
        settings jsonb NOT NULL,
        search_options jsonb NOT NULL DEFAULT '{}'::jsonb,
        embedding_model text,
        chat_model text,
        prompt_versions jsonb NOT NULL DEFAULT '{}'::jsonb,
        dataset_hash text,
        item_count integer NOT NULL DEFAULT 0,
        scored_items integer NOT NULL DEFAULT 0,
        metrics jsonb,
        intervals jsonb,
        refusal jsonb,
        per_item jsonb,
        timings jsonb,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz
      )`);
    await queryRunner.query(
      `CREATE INDEX eval_runs_bank_created_idx ON eval_runs (bank_id, created_at DESC, id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS eval_runs`);
    await queryRunner.query(`DROP TABLE IF EXISTS question_bank_items`);
    await queryRunner.query(`DROP TABLE IF EXISTS question_banks`);
    await queryRunner.query(`DROP TABLE IF EXISTS question_templates`);
  }
}
