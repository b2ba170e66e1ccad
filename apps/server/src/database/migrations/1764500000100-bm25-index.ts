import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Okapi BM25 statistics kept by PostgreSQL itself. Postgres text search ('english': Snowball stemming,
 * stop words) turns each chunk's indexed text into lexemes; statement-level triggers keep, in the same
 * transaction as the chunk rows:
 *   bm25_postings (term, chunk_id, tf)   term frequency of each lexeme in each chunk
 *   bm25_terms    (term, df)             how many chunks contain the lexeme
 *   bm25_corpus   (chunk_count, total_length)   for the average chunk length
 *   chunks.lexical_length                token count of the chunk (generated column)
 * Whatever writes chunks (the ORM, raw SQL, binary COPY, a cascade delete) keeps the index exact.
 * The ranking query itself lives in apps/server/src/modules/rag/repositories/sql/bm25-search.sql.ts.
 */
export class Bm25Index1764500000100 implements MigrationInterface {
  name = 'Bm25Index1764500000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION bm25_token_count(doc tsvector) RETURNS integer
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      AS $$ SELECT coalesce(sum(coalesce(array_length(t.positions, 1), 1)), 0)::integer FROM unnest(doc) AS t $$`);
    await queryRunner.query(`
      ALTER TABLE chunks ADD COLUMN lexical_length integer
        GENERATED ALWAYS AS (bm25_token_count(to_tsvector('english'::regconfig, index_text))) STORED`);
    await queryRunner.query(`
      CREATE TABLE bm25_postings (
        term text NOT NULL,
        chunk_id uuid NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
        tf integer NOT NULL CHECK (tf > 0),
        PRIMARY KEY (term, chunk_id)
      )`);
    await queryRunner.query(`CREATE INDEX bm25_postings_chunk_idx ON bm25_postings (chunk_id)`);
    await queryRunner.query(`
      CREATE TABLE bm25_terms (
        term text PRIMARY KEY,
        df integer NOT NULL CHECK (df >= 0)
      )`);
    await queryRunner.query(`
      CREATE TABLE bm25_corpus (
        id smallint PRIMARY KEY CHECK (id = 1),
        chunk_count bigint NOT NULL CHECK (chunk_count >= 0),
        total_length bigint NOT NULL CHECK (total_length >= 0)
      )`);
    await queryRunner.query(`
      INSERT INTO bm25_corpus (id, chunk_count, total_length)
      SELECT 1, count(*), coalesce(sum(lexical_length), 0) FROM chunks`);

    await queryRunner.query(`
      CREATE FUNCTION bm25_chunks_added() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO bm25_postings (term, chunk_id, tf)
          SELECT t.lexeme, c.id, coalesce(array_length(t.positions, 1), 1)
          FROM added_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t;
        INSERT INTO bm25_terms AS bt (term, df)
          SELECT t.lexeme, count(*) FROM added_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t
          GROUP BY t.lexeme ORDER BY t.lexeme
          ON CONFLICT (term) DO UPDATE SET df = bt.df + EXCLUDED.df;
        UPDATE bm25_corpus SET
          chunk_count = chunk_count + (SELECT count(*) FROM added_chunks),
          total_length = total_length + (SELECT coalesce(sum(lexical_length), 0) FROM added_chunks)
        WHERE id = 1;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION bm25_chunks_removed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM bm25_postings p USING removed_chunks c WHERE p.chunk_id = c.id;
        UPDATE bm25_terms AS bt SET df = bt.df - d.n
          FROM (
            SELECT t.lexeme AS term, count(*) AS n
            FROM removed_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t
            GROUP BY t.lexeme ORDER BY t.lexeme
          ) AS d
          WHERE bt.term = d.term;
        DELETE FROM bm25_terms WHERE df = 0;
        UPDATE bm25_corpus SET
          chunk_count = chunk_count - (SELECT count(*) FROM removed_chunks),
          total_length = total_length - (SELECT coalesce(sum(lexical_length), 0) FROM removed_chunks)
        WHERE id = 1;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER chunks_bm25_insert AFTER INSERT ON chunks
        REFERENCING NEW TABLE AS added_chunks FOR EACH STATEMENT EXECUTE FUNCTION bm25_chunks_added()`);
    await queryRunner.query(`
      CREATE TRIGGER chunks_bm25_delete AFTER DELETE ON chunks
        REFERENCING OLD TABLE AS removed_chunks FOR EACH STATEMENT EXECUTE FUNCTION bm25_chunks_removed()`);
    // An UPDATE of the indexed text is a removal of the old row's terms and an addition of the new ones.
    await queryRunner.query(`
      CREATE FUNCTION bm25_chunks_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NOT EXISTS (
          SELECT 1 FROM removed_chunks o JOIN added_chunks n ON n.id = o.id WHERE n.tsv IS DISTINCT FROM o.tsv
        ) THEN
          RETURN NULL;
        END IF;
        DELETE FROM bm25_postings p USING removed_chunks c WHERE p.chunk_id = c.id;
        UPDATE bm25_terms AS bt SET df = bt.df - d.n
          FROM (
            SELECT t.lexeme AS term, count(*) AS n
            FROM removed_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t
            GROUP BY t.lexeme ORDER BY t.lexeme
          ) AS d
          WHERE bt.term = d.term;
        INSERT INTO bm25_postings (term, chunk_id, tf)
          SELECT t.lexeme, c.id, coalesce(array_length(t.positions, 1), 1)
          FROM added_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t;
        INSERT INTO bm25_terms AS bt (term, df)
          SELECT t.lexeme, count(*) FROM added_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t
          GROUP BY t.lexeme ORDER BY t.lexeme
          ON CONFLICT (term) DO UPDATE SET df = bt.df + EXCLUDED.df;
        DELETE FROM bm25_terms WHERE df = 0;
        UPDATE bm25_corpus SET total_length = total_length
          - (SELECT coalesce(sum(lexical_length), 0) FROM removed_chunks)
          + (SELECT coalesce(sum(lexical_length), 0) FROM added_chunks)
        WHERE id = 1;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER chunks_bm25_update AFTER UPDATE ON chunks
        REFERENCING OLD TABLE AS removed_chunks NEW TABLE AS added_chunks
        FOR EACH STATEMENT EXECUTE FUNCTION bm25_chunks_changed()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER IF EXISTS chunks_bm25_update ON chunks`);
    await queryRunner.query(`DROP TRIGGER IF EXISTS chunks_bm25_delete ON chunks`);
    await queryRunner.query(`DROP TRIGGER IF EXISTS chunks_bm25_insert ON chunks`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS bm25_chunks_changed()`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS bm25_chunks_removed()`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS bm25_chunks_added()`);
    await queryRunner.query(`DROP TABLE IF EXISTS bm25_corpus`);
    await queryRunner.query(`DROP TABLE IF EXISTS bm25_terms`);
    await queryRunner.query(`DROP TABLE IF EXISTS bm25_postings`);
    await queryRunner.query(`ALTER TABLE chunks DROP COLUMN IF EXISTS lexical_length`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS bm25_token_count(tsvector)`);
  }
}
