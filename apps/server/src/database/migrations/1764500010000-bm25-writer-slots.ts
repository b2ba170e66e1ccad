import type { MigrationInterface, QueryRunner } from 'typeorm';
import { bm25AddedFunction, bm25ChangedFunction } from './1764500006000-bm25-postings-length';

/** Writers' slots: a transaction adds to the rows of slot pg_backend_pid() % BM25_WRITER_SLOTS. */
export const BM25_WRITER_SLOTS = 64;

/**
 * Concurrent writers no longer queue on the BM25 statistics. Before, every chunk write updated the one
 * row of bm25_corpus and the bm25_terms row of each of its terms, and held those row locks until commit:
 * the next writer of any common term waited, and two transactions writing their chunks in several
 * statements could lock the same terms in different orders (a deadlock). Now the counts are kept per
 * writer slot — a transaction's backend adds its deltas (negative for removals) to its own slot's rows —
 * and read as sums:
 *   bm25_corpus_slots (slot, chunk_count, total_length)   ≤ 64 rows
 *   bm25_term_slots   (term, slot, df)                    ≤ 64 rows per term, usually a few
 * Two writers on different backends never touch the same statistics row. The sums are exact: a slot's
 * row may go negative (a chunk added by one backend and removed by another) but the total never does.
 * The views bm25_corpus (id 1, chunk_count, total_length) and bm25_terms (term, df > 0) keep the old
 * shape for readers; the ranking query reads the slot tables directly (bm25-search.sql.ts).
 */
export class Bm25WriterSlots1764500010000 implements MigrationInterface {
  name = 'Bm25WriterSlots1764500010000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION bm25_writer_slot() RETURNS smallint LANGUAGE sql STABLE PARALLEL SAFE
      AS $$ SELECT (pg_backend_pid() % ${BM25_WRITER_SLOTS})::smallint $$`);
    await queryRunner.query(`
      CREATE TABLE bm25_corpus_slots (
        slot smallint PRIMARY KEY,
        chunk_count bigint NOT NULL,
        total_length bigint NOT NULL
      )`);
    await queryRunner.query(`
      INSERT INTO bm25_corpus_slots (slot, chunk_count, total_length)
      SELECT 0, chunk_count, total_length FROM bm25_corpus WHERE id = 1`);
    await queryRunner.query(`
      CREATE TABLE bm25_term_slots (
        term text NOT NULL,
        slot smallint NOT NULL,
        df bigint NOT NULL,
        PRIMARY KEY (term, slot)
      )`);
    await queryRunner.query(`
      INSERT INTO bm25_term_slots (term, slot, df) SELECT term, 0, df FROM bm25_terms ORDER BY term`);
    await queryRunner.query(`DROP TABLE bm25_corpus`);
    await queryRunner.query(`DROP TABLE bm25_terms`);
    await queryRunner.query(`
      CREATE VIEW bm25_corpus AS
      SELECT 1::smallint AS id, coalesce(sum(chunk_count), 0)::bigint AS chunk_count,
             coalesce(sum(total_length), 0)::bigint AS total_length
      FROM bm25_corpus_slots`);
    await queryRunner.query(`
      CREATE VIEW bm25_terms AS
      SELECT term, sum(df)::bigint AS df FROM bm25_term_slots GROUP BY term HAVING sum(df) <> 0`);
    await queryRunner.query(ADDED);
    await queryRunner.query(REMOVED);
    await queryRunner.query(CHANGED);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP VIEW bm25_terms`);
    await queryRunner.query(`DROP VIEW bm25_corpus`);
    await queryRunner.query(`
      CREATE TABLE bm25_terms (
        term text PRIMARY KEY,
        df integer NOT NULL CHECK (df >= 0)
      )`);
    await queryRunner.query(`
      INSERT INTO bm25_terms (term, df)
      SELECT term, sum(df) FROM bm25_term_slots GROUP BY term HAVING sum(df) <> 0 ORDER BY term`);
    await queryRunner.query(`
      CREATE TABLE bm25_corpus (
        id smallint PRIMARY KEY CHECK (id = 1),
        chunk_count bigint NOT NULL CHECK (chunk_count >= 0),
        total_length bigint NOT NULL CHECK (total_length >= 0)
      )`);
    await queryRunner.query(`
      INSERT INTO bm25_corpus (id, chunk_count, total_length)
      SELECT 1, coalesce(sum(chunk_count), 0), coalesce(sum(total_length), 0) FROM bm25_corpus_slots`);
    await queryRunner.query(bm25AddedFunction(true));
    await queryRunner.query(REMOVED_BEFORE);
    await queryRunner.query(bm25ChangedFunction(true));
    await queryRunner.query(`DROP TABLE bm25_term_slots`);
    await queryRunner.query(`DROP TABLE bm25_corpus_slots`);
    await queryRunner.query(`DROP FUNCTION bm25_writer_slot()`);
  }
}

const INSERT_POSTINGS = `INSERT INTO bm25_postings (term, chunk_id, tf, chunk_length)
          SELECT t.lexeme, c.id, coalesce(array_length(t.positions, 1), 1), c.lexical_length
          FROM added_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t;`;

/** Adds each term's chunk count among `chunks` (times `sign`) to this writer's slot. */
function termDeltas(chunks: 'added_chunks' | 'removed_chunks', sign: 1 | -1): string {
  return `INSERT INTO bm25_term_slots AS bt (term, slot, df)
          SELECT t.lexeme, s, ${sign === 1 ? '' : '-'}count(*)
          FROM ${chunks} c CROSS JOIN LATERAL unnest(c.tsv) AS t
          GROUP BY t.lexeme ORDER BY t.lexeme
          ON CONFLICT (term, slot) DO UPDATE SET df = bt.df + EXCLUDED.df;`;
}

/** This slot's rows that came back to zero, for the terms of `removed_chunks`. */
const DROP_ZERO_TERMS = `DELETE FROM bm25_term_slots bt
          USING (SELECT DISTINCT t.lexeme FROM removed_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t) AS d
          WHERE bt.term = d.lexeme AND bt.slot = s AND bt.df = 0;`;

function corpusDelta(count: string, length: string): string {
  return `INSERT INTO bm25_corpus_slots AS bc (slot, chunk_count, total_length)
          VALUES (s, ${count}, ${length})
          ON CONFLICT (slot) DO UPDATE SET chunk_count = bc.chunk_count + EXCLUDED.chunk_count,
                                           total_length = bc.total_length + EXCLUDED.total_length;`;
}

const ADDED = `
      CREATE OR REPLACE FUNCTION bm25_chunks_added() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE s smallint := bm25_writer_slot();
      BEGIN
        ${INSERT_POSTINGS}
        ${termDeltas('added_chunks', 1)}
        ${corpusDelta(
          '(SELECT count(*) FROM added_chunks)',
          '(SELECT coalesce(sum(lexical_length), 0) FROM added_chunks)',
        )}
        RETURN NULL;
      END $$`;

const REMOVED = `
      CREATE OR REPLACE FUNCTION bm25_chunks_removed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE s smallint := bm25_writer_slot();
      BEGIN
        DELETE FROM bm25_postings p USING removed_chunks c WHERE p.chunk_id = c.id;
        ${termDeltas('removed_chunks', -1)}
        ${DROP_ZERO_TERMS}
        ${corpusDelta(
          '-(SELECT count(*) FROM removed_chunks)',
          '-(SELECT coalesce(sum(lexical_length), 0) FROM removed_chunks)',
        )}
        RETURN NULL;
      END $$`;

const CHANGED = `
      CREATE OR REPLACE FUNCTION bm25_chunks_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE s smallint := bm25_writer_slot();
      BEGIN
        IF NOT EXISTS (
          SELECT 1 FROM removed_chunks o JOIN added_chunks n ON n.id = o.id WHERE n.tsv IS DISTINCT FROM o.tsv
        ) THEN
          RETURN NULL;
        END IF;
        DELETE FROM bm25_postings p USING removed_chunks c WHERE p.chunk_id = c.id;
        ${termDeltas('removed_chunks', -1)}
        ${INSERT_POSTINGS}
        ${termDeltas('added_chunks', 1)}
        ${DROP_ZERO_TERMS}
        ${corpusDelta(
          '0',
          '(SELECT coalesce(sum(lexical_length), 0) FROM added_chunks) - (SELECT coalesce(sum(lexical_length), 0) FROM removed_chunks)',
        )}
        RETURN NULL;
      END $$`;

/** The removal trigger as the bm25 migration made it (single statistics rows). */
const REMOVED_BEFORE = `
      CREATE OR REPLACE FUNCTION bm25_chunks_removed() RETURNS trigger LANGUAGE plpgsql AS $$
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
      END $$`;

/** The writer-slot triggers, as the collections migration's `down` restores them. */
export {
  ADDED as BM25_ADDED_BEFORE_COLLECTIONS,
  REMOVED as BM25_REMOVED_BEFORE_COLLECTIONS,
  CHANGED as BM25_CHANGED_BEFORE_COLLECTIONS,
};
