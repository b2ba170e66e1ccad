import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A user key's grants: `read` or `write` on named collections. An admin key needs none (it reaches every
 * collection). A grant goes with its key's row and with its collection.
 */
export class KeyGrants1764500150000 implements MigrationInterface {
  name = 'KeyGrants1764500150000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE api_key_grants (
        key_id uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
        collection_id uuid NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
        access text NOT NULL CHECK (access IN ('read', 'write')),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (key_id, collection_id)
      )`);
    await queryRunner.query(`CREATE INDEX api_key_grants_collection_idx ON api_key_grants (collection_id)`);
    // Before collections, a user key read the one library: it keeps reading it.
    await queryRunner.query(`
      INSERT INTO api_key_grants (key_id, collection_id, access)
      SELECT id, default_collection_id(), 'read' FROM api_keys
      WHERE role = 'user' AND default_collection_id() IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE api_key_grants`);
  }
}
