import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The pages of a paged source (PDF) each chunk runs over, so a citation can say "p. 12". Null for
 * unpaged sources and for chunks indexed before; both columns are set together, first ≤ last.
 */
export class ChunkPages1764500030000 implements MigrationInterface {
  name = 'ChunkPages1764500030000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE chunks
        ADD COLUMN page_start integer,
        ADD COLUMN page_end integer,
        ADD CONSTRAINT chunks_pages_check CHECK (
          (page_start IS NULL AND page_end IS NULL) OR (page_start >= 1 AND page_end >= page_start))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE chunks DROP CONSTRAINT chunks_pages_check, DROP COLUMN page_end, DROP COLUMN page_start`);
  }
}
