import { CORPUS_STATS_SQL, QUERY_TERM_STATS_SQL } from '../modules/rag/repositories/sql/term-evidence.sql';
import { TEST_BACKEND } from './helpers/test-backend';
import { startTestDatabase } from './helpers/test-database';
import type { TestDatabase } from './helpers/test-database';
import { testEnv } from './helpers/test-env';

/** A vocabulary the size an upload of random words leaves behind, spread over several writer slots. */
const VOCABULARY = 30_000;
const SLOTS = 4;

/** The statement this replaces: it joined the `bm25_terms` view, which sums every term's slots. */
const VIEW_JOIN_SQL = QUERY_TERM_STATS_SQL.replace(
  /CROSS JOIN LATERAL \(\s*SELECT sum\(s\.df\)::bigint AS df FROM bm25_term_slots s\s*WHERE s\.term = q\.term AND s\.collection_id = ANY\(\$3::uuid\[\]\)\s*\) bt/,
  'LEFT JOIN bm25_terms bt ON bt.term = q.term AND $3::uuid[] IS NOT NULL',
);

/**
 * The answerability evidence's term statistics read only the searched terms' rows of bm25_term_slots,
 * through its key (term, slot), never an aggregate over the vocabulary; the corpus statistics read the
 * writers' slots (at most 64 rows). Checked on the plan (EXPLAIN ANALYZE: rows actually read) and
 * against the view's answer.
 */
describe(`term statistics for the query's terms only, on ${TEST_BACKEND}`, () => {
  let db: TestDatabase;
  const query: unknown[] = [['failover replica promote zzunseen'], ['english']];
  /** The one collection the statistics below belong to (the migration's Default). */
  let collections: string[];

  const plan = async (sql: string, parameters: unknown[] = []): Promise<string> => {
    const rows: Record<string, string>[] = await db.dataSource.query(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${sql}`,
      parameters,
    );
    return rows.map((row) => Object.values(row)[0]).join('\n');
  };

  beforeAll(async () => {
    db = await startTestDatabase(testEnv());
    const [{ id }] = await db.dataSource.query(`SELECT default_collection_id() AS id`);
    collections = [id];
    query.push(collections);
    // Statistics as the triggers keep them (bm25-writer-slots migration), written directly: a vocabulary
    // of random words, each term's df split over a few slots, plus the query's real terms.
    await db.dataSource.query(
      `INSERT INTO bm25_term_slots (collection_id, term, slot, df)
       SELECT default_collection_id(), 'w' || md5(i::text), (i % ${SLOTS})::smallint, 1 + i % 3
       FROM generate_series(1, ${VOCABULARY}) AS i`,
    );
    await db.dataSource.query(
      `INSERT INTO bm25_term_slots (collection_id, term, slot, df)
       SELECT default_collection_id(), term, slot, df FROM (VALUES ('failov', 0, 5), ('failov', 3, 2), ('replica', 1, 4), ('promot', 2, 1))
         AS v(term, slot, df)`,
    );
    await db.dataSource.query(
      `INSERT INTO bm25_corpus_slots (collection_id, slot, chunk_count, total_length)
       SELECT default_collection_id(), v.* FROM (VALUES (0, 100, 5000), (1, 20, 800), (2, -3, -90)) AS v
       ON CONFLICT (collection_id, slot) DO UPDATE SET chunk_count = EXCLUDED.chunk_count, total_length = EXCLUDED.total_length`,
    );
    await db.dataSource.query('ANALYZE bm25_term_slots');
    await db.dataSource.query('ANALYZE bm25_corpus_slots');
  }, 120_000);

  afterAll(async () => {
    await db?.close();
  });

  it('answers as the view did: each query term with its summed df, 0 when unseen', async () => {
    const rows = await db.dataSource.query(QUERY_TERM_STATS_SQL, query);
    const viaView = await db.dataSource.query(VIEW_JOIN_SQL, query);
    const shape = (list: { term: string; qtf: number; df: string | number }[]) =>
      list.map((row) => ({ term: row.term, qtf: Number(row.qtf), df: Number(row.df) }));
    expect(shape(rows)).toEqual([
      { term: 'failov', qtf: 1, df: 7 },
      { term: 'promot', qtf: 1, df: 1 },
      { term: 'replica', qtf: 1, df: 4 },
      { term: 'zzunseen', qtf: 1, df: 0 },
    ]);
    expect(shape(viaView)).toEqual(shape(rows));
    const [corpus] = await db.dataSource.query(CORPUS_STATS_SQL, [collections]);
    expect({ chunks: Number(corpus.chunks), avgLength: Number(corpus.avgLength) }).toEqual({
      chunks: 117,
      avgLength: 5710 / 117,
    });
  });

  it('reads bm25_term_slots by its key for the query terms only, with no aggregate over the vocabulary', async () => {
    const text = await plan(QUERY_TERM_STATS_SQL, query);
    const slotScans = text.split('\n').filter((line) => /on bm25_term_slots/.test(line));
    expect(slotScans.length).toBeGreaterThan(0);
    for (const line of slotScans) expect(line).toMatch(/Index (Only )?Scan using bm25_term_slots_pkey/);
    expect(text).not.toMatch(/Seq Scan on bm25_term_slots/);
    // Four query terms, each looked up once: the scans return only their own rows (7 of 30,004).
    const returned = [
      ...text.matchAll(
        /Index (?:Only )?Scan using bm25_term_slots_pkey[^\n]*\(actual rows=(\d+(?:\.\d+)?) loops=(\d+)\)/g,
      ),
    ];
    expect(returned.length).toBeGreaterThan(0);
    const rowsRead = returned.reduce((sum, match) => sum + Number(match[1]) * Number(match[2]), 0);
    expect(rowsRead).toBeLessThanOrEqual(7);

    // The view join it replaces aggregated every term's slots (the whole table) for any query.
    const before = await plan(VIEW_JOIN_SQL, query);
    expect(before).toMatch(
      /(Seq Scan|Index Only Scan|Index Scan)[^\n]*bm25_term_slots[^\n]*actual rows=30\d\d\d/,
    );
  });

  it('reads the corpus statistics from the writers’ slots only', async () => {
    const text = await plan(CORPUS_STATS_SQL, [collections]);
    expect(text).toMatch(/bm25_corpus_slots/);
    expect(text).not.toMatch(/bm25_term_slots|chunks/);
  });
});
