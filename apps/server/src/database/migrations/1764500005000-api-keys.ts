import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys with a role. Only sha256(key) is stored (keys are 32 random bytes, so a fast hash is the right
 * one; see api-key.ts), with a short prefix for display. Revoking sets revoked_at; rows are kept so a
 * conversation's owner_key_id (no foreign key: conversations outlive their key) still names a key.
 */
export class ApiKeys1764500005000 implements MigrationInterface {
  name = 'ApiKeys1764500005000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        role text NOT NULL CHECK (role IN ('admin', 'user')),
        key_hash text NOT NULL UNIQUE,
        key_prefix text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
    await queryRunner.query(
      `CREATE INDEX api_keys_active_role_idx ON api_keys (role, created_at) WHERE revoked_at IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE api_keys`);
  }
}
