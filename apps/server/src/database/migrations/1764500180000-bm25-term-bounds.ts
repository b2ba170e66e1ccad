import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Upper bounds on each term's BM25 contribution, kept with the postings, for the pruned top-k search
 * (rag/repositories/bm25-pruned-search.ts).
 *
 *   bm25_term_bounds (collection_id, term, slot, max_tf, min_length_per_tf)
 *
 * A term's contribution to a chunk's score is qtf · idf · (k1 + 1) / (1 + k1·(1 − b)/tf + k1·b·(len/tf)/avglen):
 * it grows with tf and falls with len/tf, whatever N, the average length, k1 and b are. So the largest tf
 * of any of the term's postings and the smallest len/tf of any of them give a bound that stays safe as
 * the corpus drifts; the score it bounds is computed at search time from today's idf and average length.
 *
 * Kept like df: per writer slot, by the same insert and update triggers, in the same statement as the
 * slot's df (one pass over the new chunks' lexemes), so two writers never touch the same bounds row and
 * no writer waits on another. The read takes the max tf and the min len/tf over the slots of the searched
 * collections. Deleting chunks leaves the bounds as they were: a bound may stay loose (too high) after a
 * delete, never too low, and looser bounds only make the pruned search read more, never rank differently.
 * A slot's row is never dropped when its df returns to zero (the bound may still cover another slot's
 * postings); the rows of a deleted collection go with its other BM25 rows.
 */
export class Bm25TermBounds1764500180000 implements MigrationInterface {
  name = 'Bm25TermBounds1764500180000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE bm25_term_bounds (
        collection_id uuid NOT NULL,
        term text NOT NULL,
        slot smallint NOT NULL,
        max_tf integer NOT NULL CHECK (max_tf > 0),
        min_length_per_tf float8 NOT NULL CHECK (min_length_per_tf >= 0),
        PRIMARY KEY (collection_id, term, slot)
      )`);
    await queryRunner.query(`
      INSERT INTO bm25_term_bounds (collection_id, term, slot, max_tf, min_length_per_tf)
      SELECT collection_id, term, 0, max(tf), min(chunk_length::float8 / tf)
      FROM bm25_postings GROUP BY collection_id, term ORDER BY collection_id, term`);
    await queryRunner.query(ADDED);
    await queryRunner.query(CHANGED);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(ADDED_BEFORE);
    await queryRunner.query(CHANGED_BEFORE);
    await queryRunner.query(`DROP TABLE bm25_term_bounds`);
  }
}

const INSERT_POSTINGS = `INSERT INTO bm25_postings (collection_id, term, chunk_id, tf, chunk_length)
          SELECT c.collection_id, t.lexeme, c.id, coalesce(array_length(t.positions, 1), 1), c.lexical_length
          FROM added_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t;`;

/**
 * Each (collection, term)'s df among the added chunks into this slot's bm25_term_slots row, and its
 * largest tf and smallest length/tf into this slot's bm25_term_bounds row: one pass over the lexemes.
 * A bounds row is rewritten only when the bound grows.
 */
const TERM_DELTAS_AND_BOUNDS = `WITH d AS MATERIALIZED (
            SELECT c.collection_id, t.lexeme, count(*) AS df,
                   max(coalesce(array_length(t.positions, 1), 1)) AS max_tf,
                   min(c.lexical_length::float8 / coalesce(array_length(t.positions, 1), 1)) AS min_length_per_tf
            FROM added_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t
            GROUP BY c.collection_id, t.lexeme
          ), slots AS (
            INSERT INTO bm25_term_slots AS bt (collection_id, term, slot, df)
            SELECT collection_id, lexeme, s, df FROM d ORDER BY collection_id, lexeme
            ON CONFLICT (collection_id, term, slot) DO UPDATE SET df = bt.df + EXCLUDED.df
          )
          INSERT INTO bm25_term_bounds AS tb (collection_id, term, slot, max_tf, min_length_per_tf)
          SELECT collection_id, lexeme, s, max_tf, min_length_per_tf FROM d ORDER BY collection_id, lexeme
          ON CONFLICT (collection_id, term, slot) DO UPDATE
            SET max_tf = greatest(tb.max_tf, EXCLUDED.max_tf),
                min_length_per_tf = least(tb.min_length_per_tf, EXCLUDED.min_length_per_tf)
            WHERE EXCLUDED.max_tf > tb.max_tf OR EXCLUDED.min_length_per_tf < tb.min_length_per_tf;`;

/** The removed chunks' df out of this writer's slot (bounds stay). */
const TERM_REMOVALS = `INSERT INTO bm25_term_slots AS bt (collection_id, term, slot, df)
          SELECT c.collection_id, t.lexeme, s, -count(*)
          FROM removed_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t
          GROUP BY c.collection_id, t.lexeme ORDER BY c.collection_id, t.lexeme
          ON CONFLICT (collection_id, term, slot) DO UPDATE SET df = bt.df + EXCLUDED.df;`;

const DROP_ZERO_TERMS = `DELETE FROM bm25_term_slots bt
          USING (SELECT DISTINCT c.collection_id, t.lexeme
                 FROM removed_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t) AS d
          WHERE bt.collection_id = d.collection_id AND bt.term = d.lexeme AND bt.slot = s AND bt.df = 0;`;

function corpusDeltas(chunks: 'added_chunks' | 'removed_chunks', sign: 1 | -1): string {
  const minus = sign === 1 ? '' : '-';
  return `INSERT INTO bm25_corpus_slots AS bc (collection_id, slot, chunk_count, total_length)
          SELECT c.collection_id, s, ${minus}count(*), ${minus}coalesce(sum(c.lexical_length), 0)
          FROM ${chunks} c GROUP BY c.collection_id ORDER BY c.collection_id
          ON CONFLICT (collection_id, slot) DO UPDATE
            SET chunk_count = bc.chunk_count + EXCLUDED.chunk_count,
                total_length = bc.total_length + EXCLUDED.total_length;`;
}

const ADDED = `
      CREATE OR REPLACE FUNCTION bm25_chunks_added() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE s smallint := bm25_writer_slot();
      BEGIN
        ${INSERT_POSTINGS}
        ${TERM_DELTAS_AND_BOUNDS}
        ${corpusDeltas('added_chunks', 1)}
        RETURN NULL;
      END $$`;

const CHANGED = `
      CREATE OR REPLACE FUNCTION bm25_chunks_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE s smallint := bm25_writer_slot();
      BEGIN
        IF NOT EXISTS (
          SELECT 1 FROM removed_chunks o JOIN added_chunks n ON n.id = o.id
          WHERE n.tsv IS DISTINCT FROM o.tsv OR n.collection_id IS DISTINCT FROM o.collection_id
        ) THEN
          RETURN NULL;
        END IF;
        DELETE FROM bm25_postings p USING removed_chunks c WHERE p.chunk_id = c.id;
        ${TERM_REMOVALS}
        ${corpusDeltas('removed_chunks', -1)}
        ${INSERT_POSTINGS}
        ${TERM_DELTAS_AND_BOUNDS}
        ${corpusDeltas('added_chunks', 1)}
        ${DROP_ZERO_TERMS}
        RETURN NULL;
      END $$`;

function termDeltasBefore(chunks: 'added_chunks' | 'removed_chunks', sign: 1 | -1): string {
  return `INSERT INTO bm25_term_slots AS bt (collection_id, term, slot, df)
          SELECT c.collection_id, t.lexeme, s, ${sign === 1 ? '' : '-'}count(*)
          FROM ${chunks} c CROSS JOIN LATERAL unnest(c.tsv) AS t
          GROUP BY c.collection_id, t.lexeme ORDER BY c.collection_id, t.lexeme
          ON CONFLICT (collection_id, term, slot) DO UPDATE SET df = bt.df + EXCLUDED.df;`;
}

/** The triggers as the collections migration made them. */
const ADDED_BEFORE = `
      CREATE OR REPLACE FUNCTION bm25_chunks_added() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE s smallint := bm25_writer_slot();
      BEGIN
        ${INSERT_POSTINGS}
        ${termDeltasBefore('added_chunks', 1)}
        ${corpusDeltas('added_chunks', 1)}
        RETURN NULL;
      END $$`;

const CHANGED_BEFORE = `
      CREATE OR REPLACE FUNCTION bm25_chunks_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE s smallint := bm25_writer_slot();
      BEGIN
        IF NOT EXISTS (
          SELECT 1 FROM removed_chunks o JOIN added_chunks n ON n.id = o.id
          WHERE n.tsv IS DISTINCT FROM o.tsv OR n.collection_id IS DISTINCT FROM o.collection_id
        ) THEN
          RETURN NULL;
        END IF;
        DELETE FROM bm25_postings p USING removed_chunks c WHERE p.chunk_id = c.id;
        ${termDeltasBefore('removed_chunks', -1)}
        ${corpusDeltas('removed_chunks', -1)}
        ${INSERT_POSTINGS}
        ${termDeltasBefore('added_chunks', 1)}
        ${corpusDeltas('added_chunks', 1)}
        ${DROP_ZERO_TERMS}
        RETURN NULL;
      END $$`;
