import { cleanDocumentTitle } from '@lumina/rag';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Titles stored before they were cleaned ("Multer [![NPM Version][npm-version-image]]…", HTML, emphasis):
 * re-titled with the parsers' own cleaning. Only titles holding Markdown or HTML characters are read; a
 * title that would come out empty is kept. Not reversible (the raw titles are not kept).
 */
export class CleanDocumentTitles1764500091000 implements MigrationInterface {
  name = 'CleanDocumentTitles1764500091000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const rows = (await queryRunner.query(`SELECT id, title FROM documents WHERE title ~ '[][<>*_\`!]'`)) as {
      id: string;
      title: string;
    }[];
    for (const row of rows) {
      const title = cleanDocumentTitle(row.title);
      if (title && title !== row.title) {
        await queryRunner.query(`UPDATE documents SET title = $1 WHERE id = $2`, [title, row.id]);
      }
    }
  }

  async down(): Promise<void> {
    // The raw titles are not kept: nothing to undo.
  }
}
