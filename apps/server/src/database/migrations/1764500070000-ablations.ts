import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ablations: one request evaluates a bank under every combination of ranker, expansion, HyDE and
 * rerank. Each combination is an ordinary eval run linked to its ablation (so run pages and the
 * comparison keep working), and every run now records the model calls its searches made.
 */
export class Ablations1764500070000 implements MigrationInterface {
  name = 'Ablations1764500070000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE ablations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        bank_id uuid NOT NULL REFERENCES question_banks (id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
        base_settings jsonb NOT NULL,
        generator text NOT NULL CHECK (generator IN ('llm', 'prf')),
        rerank_available boolean NOT NULL,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz
      )
    `);
    await queryRunner.query(
      `CREATE INDEX ablations_bank_created_idx ON ablations (bank_id, created_at DESC)`,
    );
    await queryRunner.query(
      `ALTER TABLE eval_runs ADD COLUMN ablation_id uuid REFERENCES ablations (id) ON DELETE CASCADE`,
    );
    await queryRunner.query(`ALTER TABLE eval_runs ADD COLUMN llm_calls integer`);
    await queryRunner.query(
      `CREATE INDEX eval_runs_ablation_idx ON eval_runs (ablation_id) WHERE ablation_id IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX eval_runs_ablation_idx`);
    await queryRunner.query(`ALTER TABLE eval_runs DROP COLUMN llm_calls`);
    await queryRunner.query(`ALTER TABLE eval_runs DROP COLUMN ablation_id`);
    await queryRunner.query(`DROP TABLE ablations`);
  }
}
