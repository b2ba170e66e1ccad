/**
 * The BM25 index writer as the database runs it today, in one place for readers. The migrations that
 * built it (bm25-index, bm25-postings-length, bm25-writer-slots, chunk-analysis-once, collections,
 * bm25-term-bounds) stay as they were written; `bm25-index-writer.spec.ts` checks, on both backends, that
 * the functions and triggers a migrated database holds are exactly these, so this page cannot drift.
 *
 * What the triggers keep in step with `chunks`, per collection:
 * - `bm25_postings (collection_id, term, chunk_id, tf, chunk_length)`: one row per term of a chunk;
 * - `bm25_term_slots (collection_id, term, slot, df)`: each term's document frequency, split over 64
 *   writer slots (`bm25_writer_slot()`: the backend's pid mod 64), summed on read (view `bm25_terms`);
 * - `bm25_corpus_slots (collection_id, slot, chunk_count, total_length)`: N and the summed lengths, per
 *   slot too (view `bm25_corpus`);
 * - `bm25_term_bounds (collection_id, term, slot, max_tf, min_length_per_tf)`: what bounds a term's BM25
 *   contribution for the pruned search (rag/repositories/bm25-pruned-search.ts), only ever loosened.
 *
 * Why slots: two ingestion transactions writing the same terms touch different statistics rows, so
 * neither waits on the other's row locks and they cannot deadlock; rows are taken in (collection, term)
 * order besides. Triggers are per statement with transition tables, so a batch of chunks costs one pass.
 * A chunk's analysis (tsvector, length) is made once, before the row is written.
 */

/** BEFORE INSERT OR UPDATE OF the analysed columns, per row: the tsvector and the token count, once. */
export const CHUNKS_LEXICAL_ANALYSIS = `
  BEGIN
    NEW.tsv := to_tsvector(NEW.text_config, coalesce(NEW.lexical_text, NEW.index_text));
    NEW.lexical_length := bm25_token_count(NEW.tsv);
    RETURN NEW;
  END`;

/** A chunk's length: its tokens, each lexeme counted as often as it occurs. */
export const BM25_TOKEN_COUNT = `
  SELECT coalesce(sum(coalesce(array_length(t.positions, 1), 1)), 0)::integer FROM unnest(doc) AS t`;

/** The writer's slot for the statistics rows. */
export const BM25_WRITER_SLOT = `SELECT (pg_backend_pid() % 64)::smallint`;

const INSERT_POSTINGS = `
    INSERT INTO bm25_postings (collection_id, term, chunk_id, tf, chunk_length)
      SELECT c.collection_id, t.lexeme, c.id, coalesce(array_length(t.positions, 1), 1), c.lexical_length
      FROM added_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t;`;

/** df into this slot, and the bounds (rewritten only when they grow): one pass over the lexemes. */
const ADD_TERMS_AND_BOUNDS = `
    WITH d AS MATERIALIZED (
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

const REMOVE_POSTINGS = `
    DELETE FROM bm25_postings p USING removed_chunks c WHERE p.chunk_id = c.id;`;

/** The removed chunks' df out of this slot (a term's bounds stay: loose, never too low). */
const REMOVE_TERMS = `
    INSERT INTO bm25_term_slots AS bt (collection_id, term, slot, df)
      SELECT c.collection_id, t.lexeme, s, -count(*)
      FROM removed_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t
      GROUP BY c.collection_id, t.lexeme ORDER BY c.collection_id, t.lexeme
      ON CONFLICT (collection_id, term, slot) DO UPDATE SET df = bt.df + EXCLUDED.df;`;

/** This slot's rows whose df came back to zero. */
const DROP_ZERO_TERMS = `
    DELETE FROM bm25_term_slots bt
      USING (SELECT DISTINCT c.collection_id, t.lexeme
             FROM removed_chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t) AS d
      WHERE bt.collection_id = d.collection_id AND bt.term = d.lexeme AND bt.slot = s AND bt.df = 0;`;

function corpus(chunks: 'added_chunks' | 'removed_chunks'): string {
  const minus = chunks === 'added_chunks' ? '' : '-';
  return `
    INSERT INTO bm25_corpus_slots AS bc (collection_id, slot, chunk_count, total_length)
      SELECT c.collection_id, s, ${minus}count(*), ${minus}coalesce(sum(c.lexical_length), 0)
      FROM ${chunks} c GROUP BY c.collection_id ORDER BY c.collection_id
      ON CONFLICT (collection_id, slot) DO UPDATE
        SET chunk_count = bc.chunk_count + EXCLUDED.chunk_count,
            total_length = bc.total_length + EXCLUDED.total_length;`;
}

const body = (...statements: string[]) => `
  DECLARE s smallint := bm25_writer_slot();
  BEGIN${statements.join('')}
    RETURN NULL;
  END`;

/** AFTER INSERT, per statement: postings, df and bounds, N and total length. */
export const BM25_CHUNKS_ADDED = body(INSERT_POSTINGS, ADD_TERMS_AND_BOUNDS, corpus('added_chunks'));

/** AFTER DELETE, per statement: the postings and the statistics out again. */
export const BM25_CHUNKS_REMOVED = body(
  REMOVE_POSTINGS,
  REMOVE_TERMS,
  DROP_ZERO_TERMS,
  corpus('removed_chunks'),
);

/**
 * AFTER UPDATE, per statement: nothing unless a chunk's tsvector or collection changed; then the old
 * rows out and the new ones in, as a delete and an insert would.
 */
export const BM25_CHUNKS_CHANGED = body(
  `
    IF NOT EXISTS (
      SELECT 1 FROM removed_chunks o JOIN added_chunks n ON n.id = o.id
      WHERE n.tsv IS DISTINCT FROM o.tsv OR n.collection_id IS DISTINCT FROM o.collection_id
    ) THEN
      RETURN NULL;
    END IF;`,
  REMOVE_POSTINGS,
  REMOVE_TERMS,
  corpus('removed_chunks'),
  INSERT_POSTINGS,
  ADD_TERMS_AND_BOUNDS,
  corpus('added_chunks'),
  DROP_ZERO_TERMS,
);

/** Each function's body, by name, as `pg_proc.prosrc` holds it (up to white space). */
export const BM25_INDEX_WRITER_FUNCTIONS: Readonly<Record<string, string>> = {
  chunks_lexical_analysis: CHUNKS_LEXICAL_ANALYSIS,
  bm25_token_count: BM25_TOKEN_COUNT,
  bm25_writer_slot: BM25_WRITER_SLOT,
  bm25_chunks_added: BM25_CHUNKS_ADDED,
  bm25_chunks_removed: BM25_CHUNKS_REMOVED,
  bm25_chunks_changed: BM25_CHUNKS_CHANGED,
};

/** The triggers on `chunks` that call them, as `pg_get_triggerdef` writes them. */
export const BM25_INDEX_WRITER_TRIGGERS: readonly string[] = [
  'CREATE TRIGGER chunks_bm25_delete AFTER DELETE ON public.chunks REFERENCING OLD TABLE AS removed_chunks ' +
    'FOR EACH STATEMENT EXECUTE FUNCTION bm25_chunks_removed()',
  'CREATE TRIGGER chunks_bm25_insert AFTER INSERT ON public.chunks REFERENCING NEW TABLE AS added_chunks ' +
    'FOR EACH STATEMENT EXECUTE FUNCTION bm25_chunks_added()',
  'CREATE TRIGGER chunks_bm25_update AFTER UPDATE ON public.chunks ' +
    'REFERENCING OLD TABLE AS removed_chunks NEW TABLE AS added_chunks FOR EACH STATEMENT EXECUTE FUNCTION bm25_chunks_changed()',
  'CREATE TRIGGER chunks_lexical_analysis BEFORE INSERT OR UPDATE OF index_text, lexical_text, text_config, tsv, ' +
    'lexical_length ON public.chunks FOR EACH ROW EXECUTE FUNCTION chunks_lexical_analysis()',
];
