import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  BM25_ADDED_BEFORE_COLLECTIONS,
  BM25_CHANGED_BEFORE_COLLECTIONS,
  BM25_REMOVED_BEFORE_COLLECTIONS,
} from './1764500010000-bm25-writer-slots';

/** The collection every document of a single-library installation moves into. */
export const DEFAULT_COLLECTION_SLUG = 'default';

/**
 * Collections: every document belongs to exactly one, and so do its chunks, its BM25 statistics, the
 * question banks (with their evaluation runs and ablations) and the fitted rerankers. An installation
 * upgraded from one shared library finds everything in a collection named "Default".
 *
 * Storage follows the collection, so a search in a small collection reads that collection's rows only:
 * - `chunks.collection_id` is its document's collection, kept in the chunk row (denormalised) so dense
 *   search filters chunks without a join, through `chunks_collection_idx`;
 * - BM25 postings are keyed (collection_id, term, chunk_id): one term's postings in one collection are a
 *   contiguous range of the primary key, whatever the other collections hold;
 * - N, the total length and each df are kept per collection (and per writer slot), so a search's idf is
 *   the idf of the collections it searches (summed over them).
 * The triggers keep all of it exact, including when a document moves: an UPDATE of chunks.collection_id
 * moves its postings and statistics to the other collection.
 *
 * `default_collection_id()` is the column default of documents, chunks, banks and rerankers: the server
 * always names the collection, but rows written by older code paths (and by hand) land in "Default" the
 * way they did in the single library. A chunk written by the server takes its document's collection.
 */
export class Collections1764500140000 implements MigrationInterface {
  name = 'Collections1764500140000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE collections (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
        slug text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
        description text NOT NULL DEFAULT '',
        deleting_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT collections_slug_key UNIQUE (slug)
      )`);
    await queryRunner.query(`CREATE INDEX collections_created_at_idx ON collections (created_at, id)`);
    await queryRunner.query(
      `INSERT INTO collections (name, slug, description)
       VALUES ('Default', '${DEFAULT_COLLECTION_SLUG}', 'Every document uploaded before collections existed.')`,
    );
    await queryRunner.query(`
      CREATE FUNCTION default_collection_id() RETURNS uuid LANGUAGE sql STABLE
      AS $$ SELECT id FROM collections WHERE slug = '${DEFAULT_COLLECTION_SLUG}' $$`);

    // Documents: one collection each; the same bytes may sit in two collections, once in each.
    await queryRunner.query(`ALTER TABLE documents ADD COLUMN collection_id uuid`);
    await queryRunner.query(`UPDATE documents SET collection_id = default_collection_id()`);
    await queryRunner.query(`
      ALTER TABLE documents
        ALTER COLUMN collection_id SET NOT NULL,
        ALTER COLUMN collection_id SET DEFAULT default_collection_id(),
        ADD CONSTRAINT documents_collection_id_fkey
          FOREIGN KEY (collection_id) REFERENCES collections (id) ON DELETE CASCADE,
        DROP CONSTRAINT documents_content_hash_key,
        ADD CONSTRAINT documents_collection_hash_key UNIQUE (collection_id, content_hash)`);
    await queryRunner.query(`CREATE INDEX documents_content_hash_idx ON documents (content_hash)`);
    await queryRunner.query(
      `CREATE INDEX documents_collection_created_idx ON documents (collection_id, created_at DESC, id)`,
    );

    // Chunks carry their document's collection. Rebuilding the BM25 tables below reads it.
    await queryRunner.query(`ALTER TABLE chunks ADD COLUMN collection_id uuid`);
    await queryRunner.query(`ALTER TABLE chunks DISABLE TRIGGER USER`);
    await queryRunner.query(
      `UPDATE chunks c SET collection_id = d.collection_id FROM documents d WHERE d.id = c.document_id`,
    );
    await queryRunner.query(`ALTER TABLE chunks ENABLE TRIGGER USER`);
    await queryRunner.query(`
      ALTER TABLE chunks
        ALTER COLUMN collection_id SET NOT NULL,
        ALTER COLUMN collection_id SET DEFAULT default_collection_id()`);
    await queryRunner.query(`CREATE INDEX chunks_collection_idx ON chunks (collection_id)`);

    // Postings keyed by collection first. Rebuilt rather than UPDATEd (see the postings-length migration).
    await queryRunner.query(`
      CREATE TABLE bm25_postings_by_collection AS
      SELECT c.collection_id, p.term, p.chunk_id, p.tf, p.chunk_length
      FROM bm25_postings p JOIN chunks c ON c.id = p.chunk_id
      ORDER BY c.collection_id, p.term, p.chunk_id`);
    await queryRunner.query(`DROP TABLE bm25_postings`);
    await queryRunner.query(`ALTER TABLE bm25_postings_by_collection RENAME TO bm25_postings`);
    await queryRunner.query(`
      ALTER TABLE bm25_postings
        ALTER COLUMN collection_id SET NOT NULL,
        ALTER COLUMN term SET NOT NULL,
        ALTER COLUMN chunk_id SET NOT NULL,
        ALTER COLUMN tf SET NOT NULL,
        ALTER COLUMN chunk_length SET NOT NULL,
        ADD CONSTRAINT bm25_postings_tf_check CHECK (tf > 0),
        ADD CONSTRAINT bm25_postings_pkey PRIMARY KEY (collection_id, term, chunk_id),
        ADD CONSTRAINT bm25_postings_chunk_id_fkey
          FOREIGN KEY (chunk_id) REFERENCES chunks (id) ON DELETE CASCADE`);
    await queryRunner.query(`CREATE INDEX bm25_postings_chunk_idx ON bm25_postings (chunk_id)`);

    // The statistics per collection: counted again from the chunks, every count in slot 0.
    await queryRunner.query(`DROP VIEW bm25_terms`);
    await queryRunner.query(`DROP VIEW bm25_corpus`);
    await queryRunner.query(`DROP TABLE bm25_term_slots`);
    await queryRunner.query(`DROP TABLE bm25_corpus_slots`);
    await queryRunner.query(`
      CREATE TABLE bm25_corpus_slots (
        collection_id uuid NOT NULL,
        slot smallint NOT NULL,
        chunk_count bigint NOT NULL,
        total_length bigint NOT NULL,
        PRIMARY KEY (collection_id, slot)
      )`);
    await queryRunner.query(`
      INSERT INTO bm25_corpus_slots (collection_id, slot, chunk_count, total_length)
      SELECT collection_id, 0, count(*), coalesce(sum(lexical_length), 0) FROM chunks GROUP BY collection_id`);
    await queryRunner.query(`
      CREATE TABLE bm25_term_slots (
        collection_id uuid NOT NULL,
        term text NOT NULL,
        slot smallint NOT NULL,
        df bigint NOT NULL,
        PRIMARY KEY (collection_id, term, slot)
      )`);
    await queryRunner.query(`
      INSERT INTO bm25_term_slots (collection_id, term, slot, df)
      SELECT collection_id, term, 0, count(*) FROM bm25_postings
      GROUP BY collection_id, term ORDER BY collection_id, term`);
    await createInstallationViews(queryRunner);
    await queryRunner.query(ADDED);
    await queryRunner.query(REMOVED);
    await queryRunner.query(CHANGED);

    // What else belongs to a collection.
    for (const table of ['question_banks', 'reranker_models']) {
      await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN collection_id uuid`);
      await queryRunner.query(`UPDATE ${table} SET collection_id = default_collection_id()`);
      await queryRunner.query(`
        ALTER TABLE ${table}
          ALTER COLUMN collection_id SET NOT NULL,
          ALTER COLUMN collection_id SET DEFAULT default_collection_id(),
          ADD CONSTRAINT ${table}_collection_id_fkey
            FOREIGN KEY (collection_id) REFERENCES collections (id) ON DELETE CASCADE`);
      await queryRunner.query(`CREATE INDEX ${table}_collection_idx ON ${table} (collection_id)`);
    }
    // What a conversation searches, and what a stored trace searched.
    for (const table of ['conversations', 'retrieval_traces']) {
      await queryRunner.query(
        `ALTER TABLE ${table} ADD COLUMN collection_ids uuid[] NOT NULL DEFAULT '{}'::uuid[]`,
      );
      await queryRunner.query(`UPDATE ${table} SET collection_ids = ARRAY[default_collection_id()]`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const [{ duplicates }]: { duplicates: number }[] = await queryRunner.query(
      `SELECT count(*)::int AS duplicates FROM (
         SELECT content_hash FROM documents GROUP BY content_hash HAVING count(*) > 1) d`,
    );
    if (duplicates > 0) {
      throw new Error(
        `${duplicates} file(s) are stored in more than one collection; one library holds each file once. ` +
          'Delete the copies before reverting the collections migration.',
      );
    }
    for (const table of ['conversations', 'retrieval_traces']) {
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN collection_ids`);
    }
    for (const table of ['question_banks', 'reranker_models']) {
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN collection_id`);
    }

    await queryRunner.query(`DROP VIEW bm25_terms`);
    await queryRunner.query(`DROP VIEW bm25_corpus`);
    await queryRunner.query(`
      CREATE TABLE bm25_corpus_slots_single (
        slot smallint PRIMARY KEY,
        chunk_count bigint NOT NULL,
        total_length bigint NOT NULL
      )`);
    await queryRunner.query(`
      INSERT INTO bm25_corpus_slots_single (slot, chunk_count, total_length)
      SELECT slot, sum(chunk_count), sum(total_length) FROM bm25_corpus_slots GROUP BY slot`);
    await queryRunner.query(`
      CREATE TABLE bm25_term_slots_single (
        term text NOT NULL,
        slot smallint NOT NULL,
        df bigint NOT NULL,
        PRIMARY KEY (term, slot)
      )`);
    await queryRunner.query(`
      INSERT INTO bm25_term_slots_single (term, slot, df)
      SELECT term, slot, sum(df) FROM bm25_term_slots GROUP BY term, slot HAVING sum(df) <> 0
      ORDER BY term, slot`);
    await queryRunner.query(`DROP TABLE bm25_term_slots`);
    await queryRunner.query(`DROP TABLE bm25_corpus_slots`);
    await queryRunner.query(`ALTER TABLE bm25_term_slots_single RENAME TO bm25_term_slots`);
    await queryRunner.query(`ALTER TABLE bm25_corpus_slots_single RENAME TO bm25_corpus_slots`);
    await queryRunner.query(
      `ALTER TABLE bm25_term_slots RENAME CONSTRAINT bm25_term_slots_single_pkey TO bm25_term_slots_pkey`,
    );
    await queryRunner.query(
      `ALTER TABLE bm25_corpus_slots RENAME CONSTRAINT bm25_corpus_slots_single_pkey TO bm25_corpus_slots_pkey`,
    );
    await createInstallationViews(queryRunner);

    await queryRunner.query(`ALTER TABLE bm25_postings DROP CONSTRAINT bm25_postings_pkey`);
    await queryRunner.query(`ALTER TABLE bm25_postings DROP COLUMN collection_id`);
    await queryRunner.query(
      `ALTER TABLE bm25_postings ADD CONSTRAINT bm25_postings_pkey PRIMARY KEY (term, chunk_id)`,
    );
    await queryRunner.query(BM25_ADDED_BEFORE_COLLECTIONS);
    await queryRunner.query(BM25_REMOVED_BEFORE_COLLECTIONS);
    await queryRunner.query(BM25_CHANGED_BEFORE_COLLECTIONS);

    await queryRunner.query(`ALTER TABLE chunks DROP COLUMN collection_id`);
    await queryRunner.query(`DROP INDEX documents_collection_created_idx`);
    await queryRunner.query(`DROP INDEX documents_content_hash_idx`);
    await queryRunner.query(`
      ALTER TABLE documents
        DROP CONSTRAINT documents_collection_hash_key,
        ADD CONSTRAINT documents_content_hash_key UNIQUE (content_hash),
        DROP COLUMN collection_id`);
    await queryRunner.query(`DROP FUNCTION default_collection_id()`);
    await queryRunner.query(`DROP TABLE collections`);
  }
}

/** bm25_corpus (id 1, chunk_count, total_length) and bm25_terms (term, df): the installation's sums. */
async function createInstallationViews(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(`
    CREATE VIEW bm25_corpus AS
    SELECT 1::smallint AS id, coalesce(sum(chunk_count), 0)::bigint AS chunk_count,
           coalesce(sum(total_length), 0)::bigint AS total_length
    FROM bm25_corpus_slots`);
  await queryRunner.query(`
    CREATE VIEW bm25_terms AS
    SELECT term, sum(df)::bigint AS df FROM bm25_term_slots GROUP BY term HAVING sum(df) <> 0`);
}

const INSERT_POSTINGS = `INSERT INTO bm25_postings (collection_id, term, chunk_id, tf, chunk_length)
          SELECT c.collection_id, t.lexeme, c.id, coalesce(array_length(t.positions, 1), 1), c.lexical_length
          FROM added_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t;`;

/** Adds each (collection, term)'s chunk count among `chunks` (times `sign`) to this writer's slot. */
function termDeltas(chunks: 'added_chunks' | 'removed_chunks', sign: 1 | -1): string {
  return `INSERT INTO bm25_term_slots AS bt (collection_id, term, slot, df)
          SELECT c.collection_id, t.lexeme, s, ${sign === 1 ? '' : '-'}count(*)
          FROM ${chunks} c CROSS JOIN LATERAL unnest(c.tsv) AS t
          GROUP BY c.collection_id, t.lexeme ORDER BY c.collection_id, t.lexeme
          ON CONFLICT (collection_id, term, slot) DO UPDATE SET df = bt.df + EXCLUDED.df;`;
}

/** This slot's rows that came back to zero, for the (collection, term)s of `removed_chunks`. */
const DROP_ZERO_TERMS = `DELETE FROM bm25_term_slots bt
          USING (SELECT DISTINCT c.collection_id, t.lexeme
                 FROM removed_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t) AS d
          WHERE bt.collection_id = d.collection_id AND bt.term = d.lexeme AND bt.slot = s AND bt.df = 0;`;

/** Adds each collection's chunk count and total length among `chunks` (times `sign`) to this slot. */
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
        ${termDeltas('added_chunks', 1)}
        ${corpusDeltas('added_chunks', 1)}
        RETURN NULL;
      END $$`;

const REMOVED = `
      CREATE OR REPLACE FUNCTION bm25_chunks_removed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE s smallint := bm25_writer_slot();
      BEGIN
        DELETE FROM bm25_postings p USING removed_chunks c WHERE p.chunk_id = c.id;
        ${termDeltas('removed_chunks', -1)}
        ${DROP_ZERO_TERMS}
        ${corpusDeltas('removed_chunks', -1)}
        RETURN NULL;
      END $$`;

/** A changed text or a move to another collection rewrites the updated chunks' postings and statistics. */
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
        ${termDeltas('removed_chunks', -1)}
        ${corpusDeltas('removed_chunks', -1)}
        ${INSERT_POSTINGS}
        ${termDeltas('added_chunks', 1)}
        ${corpusDeltas('added_chunks', 1)}
        ${DROP_ZERO_TERMS}
        RETURN NULL;
      END $$`;
