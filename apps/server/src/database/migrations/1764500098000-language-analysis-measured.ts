import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored analyses follow the measured language table (libs/rag LANGUAGE_ANALYSIS) and the NFC
 * normalisation that now precedes analysis:
 * - Hindi chunks were stemmed with the `hindi` Snowball configuration, which measured 0.795 nDCG@10 on
 *   XQuAD hi against 0.945 for `simple`; they are analysed with `simple` now, like new Hindi documents.
 * - A chunk whose text is not in NFC gets its NFC form as its lexical text, so that a precomposed letter
 *   and a base letter with a combining mark index as one word, as they do for new chunks.
 * The BEFORE trigger re-analyses each updated chunk and the BM25 triggers move its postings and
 * statistics in the same statement. Down puts Hindi documents back on `hindi` where the server has it;
 * the NFC lexical texts stay (they analyse as the text did, apart from the normalisation).
 */
export class LanguageAnalysisMeasured1764500098000 implements MigrationInterface {
  name = 'LanguageAnalysisMeasured1764500098000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE chunks SET text_config = 'simple' WHERE text_config::text = 'hindi'`);
    await queryRunner.query(`UPDATE documents SET text_config = 'simple' WHERE text_config = 'hindi'`);
    await queryRunner.query(`
      UPDATE chunks SET lexical_text = normalize(coalesce(lexical_text, index_text), NFC)
      WHERE coalesce(lexical_text, index_text) IS NOT NFC NORMALIZED`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const [{ hindi }]: { hindi: boolean }[] = await queryRunner.query(
      `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_ts_config WHERE cfgname = 'hindi') AS hindi`,
    );
    if (!hindi) return;
    await queryRunner.query(`
      UPDATE chunks c SET text_config = 'hindi'
      FROM documents d
      WHERE c.document_id = d.id AND d.language = 'hi' AND d.text_config = 'simple'`);
    await queryRunner.query(
      `UPDATE documents SET text_config = 'hindi' WHERE language = 'hi' AND text_config = 'simple'`,
    );
  }
}
