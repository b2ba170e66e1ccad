import type { MigrationInterface, QueryRunner } from 'typeorm';
import { generatedColumns } from './1764500020000-language-analysis';

/**
 * A chunk's text is analysed once, not twice. `tsv` and `lexical_length` were two generated columns,
 * each with its own `to_tsvector(text_config, …)`, so every chunk written was stemmed twice; measured on
 * SciFact (8,687 chunks) one such pass is about 2 s of the embedded database's CPU, of some 27 s for
 * the whole ingestion. They are now plain columns that one BEFORE trigger fills from a single analysis,
 * whatever writes the row (INSERT, UPDATE of the text or its configuration, COPY), so they still always
 * follow the text: nobody can write them by hand, since the trigger overwrites what a statement gives.
 * DROP EXPRESSION keeps the stored values, so the lexemes, the lengths and the BM25 statistics built from
 * them are unchanged, and the table is not rewritten.
 */
export class ChunkAnalysisOnce1764500050000 implements MigrationInterface {
  name = 'ChunkAnalysisOnce1764500050000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE chunks
        ALTER COLUMN tsv DROP EXPRESSION,
        ALTER COLUMN lexical_length DROP EXPRESSION`);
    await queryRunner.query(`
      CREATE FUNCTION chunks_lexical_analysis() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.tsv := to_tsvector(NEW.text_config, coalesce(NEW.lexical_text, NEW.index_text));
        NEW.lexical_length := bm25_token_count(NEW.tsv);
        RETURN NEW;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER chunks_lexical_analysis
        BEFORE INSERT OR UPDATE OF index_text, lexical_text, text_config, tsv, lexical_length ON chunks
        FOR EACH ROW EXECUTE FUNCTION chunks_lexical_analysis()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER chunks_lexical_analysis ON chunks`);
    await queryRunner.query(`DROP FUNCTION chunks_lexical_analysis()`);
    await queryRunner.query(generatedColumns('text_config', 'coalesce(lexical_text, index_text)'));
    await queryRunner.query(`CREATE INDEX chunks_tsv_gin_idx ON chunks USING gin (tsv)`);
  }
}
