import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Searching conversations by title and content (`GET /conversations?q=`): a case-insensitive substring
 * match, served by trigram GIN indexes on the titles and on the messages' text.
 */
export class ConversationSearch1764500097000 implements MigrationInterface {
  name = 'ConversationSearch1764500097000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(
      `CREATE INDEX conversations_title_trgm_idx ON conversations USING gin (title gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE INDEX messages_content_trgm_idx ON messages USING gin (content gin_trgm_ops)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS messages_content_trgm_idx`);
    await queryRunner.query(`DROP INDEX IF EXISTS conversations_title_trgm_idx`);
    // The extension stays: other objects of the database may use it.
  }
}
