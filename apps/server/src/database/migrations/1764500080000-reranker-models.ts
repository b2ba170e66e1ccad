import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Learned rerankers fitted on a question bank, stored versioned: the model itself (JSON), what lists show
 * of it (its training size and the features it leans on), how it measured on its bank, and whether it
 * serves `enableRerank` (at most one row is active).
 */
export class RerankerModels1764500080000 implements MigrationInterface {
  name = 'RerankerModels1764500080000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE reranker_models (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        version text NOT NULL UNIQUE,
        bank_id uuid REFERENCES question_banks (id) ON DELETE SET NULL,
        bank_name text,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'fitting', 'ready', 'failed')),
        learner text NOT NULL CHECK (learner IN ('linear', 'lambdamart')),
        candidate_k integer NOT NULL,
        activate_when_ready boolean NOT NULL DEFAULT true,
        active boolean NOT NULL DEFAULT false,
        model jsonb,
        summary jsonb,
        measurement jsonb,
        error text,
        note text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        CHECK (NOT active OR status = 'ready')
      )
    `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX reranker_models_one_active_idx ON reranker_models (active) WHERE active`,
    );
    await queryRunner.query(
      `CREATE INDEX reranker_models_bank_created_idx ON reranker_models (bank_id, created_at DESC)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE reranker_models`);
  }
}
