import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A language for each document and a text-search analysis for each chunk. Until now every chunk was
 * analysed with `to_tsvector('english', index_text)`; now:
 *   documents.language      ISO 639-1 code, given at upload or detected when the document is indexed;
 *                           a search reads the distinct values to tell a question in another language
 *   documents.text_config   the text-search configuration its chunks use (NULL until indexed); the search
 *                           reads the distinct values to analyse a query once per corpus language
 *   chunks.text_config      that configuration (Snowball for the language, `simple` otherwise)
 *   chunks.lexical_text     the indexed text with the words of scripts written without spaces (Chinese,
 *                           Japanese, Thai, …) separated; NULL when that changes nothing
 *   chunks.tsv, chunks.lexical_length   now generated from those two columns
 * Rows already there keep 'english' and their text, so their lexemes, their lengths and the BM25
 * statistics built from them stay exactly what they were: the statistics triggers are left alone.
 */
export class LanguageAnalysis1764500020000 implements MigrationInterface {
  name = 'LanguageAnalysis1764500020000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE documents ADD COLUMN language text`);
    // A constant default fills the rows already there without rewriting the table; new rows get NULL.
    await queryRunner.query(`ALTER TABLE documents ADD COLUMN text_config text DEFAULT 'english'`);
    await queryRunner.query(`ALTER TABLE documents ALTER COLUMN text_config DROP DEFAULT`);
    await queryRunner.query(`CREATE INDEX documents_text_config_idx ON documents (text_config)`);
    await queryRunner.query(`CREATE INDEX documents_language_idx ON documents (language)`);
    await queryRunner.query(`
      ALTER TABLE chunks
        ADD COLUMN text_config regconfig NOT NULL DEFAULT 'english'::regconfig,
        ADD COLUMN lexical_text text`);
    await queryRunner.query(generatedColumns('text_config', 'coalesce(lexical_text, index_text)'));
    await queryRunner.query(`CREATE INDEX chunks_tsv_gin_idx ON chunks USING gin (tsv)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(generatedColumns(`'english'::regconfig`, 'index_text'));
    await queryRunner.query(`CREATE INDEX chunks_tsv_gin_idx ON chunks USING gin (tsv)`);
    await queryRunner.query(`ALTER TABLE chunks DROP COLUMN lexical_text, DROP COLUMN text_config`);
    await queryRunner.query(`DROP INDEX IF EXISTS documents_language_idx`);
    await queryRunner.query(`DROP INDEX IF EXISTS documents_text_config_idx`);
    await queryRunner.query(`ALTER TABLE documents DROP COLUMN text_config, DROP COLUMN language`);
  }
}

/** `tsv` and `lexical_length` regenerated from a configuration and a text (dropping tsv drops its index). */
export function generatedColumns(config: string, text: string): string {
  return `
      ALTER TABLE chunks
        DROP COLUMN tsv,
        DROP COLUMN lexical_length,
        ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector(${config}, ${text})) STORED,
        ADD COLUMN lexical_length integer
          GENERATED ALWAYS AS (bm25_token_count(to_tsvector(${config}, ${text}))) STORED`;
}
