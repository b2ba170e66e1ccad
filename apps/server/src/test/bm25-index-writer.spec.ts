import { BM25_INDEX_WRITER_FUNCTIONS, BM25_INDEX_WRITER_TRIGGERS } from '../database/bm25-index-writer.sql';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';
import { startTestDatabase } from './helpers/test-database';
import type { TestDatabase } from './helpers/test-database';
import { testEnv } from './helpers/test-env';

/** SQL up to white space: runs of it become one space, and none is kept at either end. */
const words = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/**
 * bm25-index-writer.sql.ts describes the BM25 writer for readers; the migrations built it. This holds the
 * two together: a migrated database's trigger functions and triggers on `chunks` are exactly the ones
 * described, so a migration that changes them must change the description too.
 */
describe('the BM25 index writer, as described in one place', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await startTestDatabase(testEnv());
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await db?.close();
  });

  it('describes every function the migrations left, body for body', async () => {
    const rows: { proname: string; prosrc: string }[] = await db.dataSource.query(
      `SELECT p.proname, p.prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname = 'public' AND (p.prorettype = 'trigger'::regtype OR p.proname LIKE 'bm25%')
       ORDER BY p.proname`,
    );
    expect(rows.map((row) => row.proname)).toEqual(Object.keys(BM25_INDEX_WRITER_FUNCTIONS).sort());
    for (const { proname, prosrc } of rows) {
      expect({ proname, body: words(prosrc) }).toEqual({
        proname,
        body: words(BM25_INDEX_WRITER_FUNCTIONS[proname]),
      });
    }
  });

  it('describes every trigger on chunks', async () => {
    const rows: { def: string }[] = await db.dataSource.query(
      `SELECT pg_get_triggerdef(t.oid) AS def FROM pg_trigger t
       WHERE t.tgrelid = 'chunks'::regclass AND NOT t.tgisinternal ORDER BY t.tgname`,
    );
    expect(rows.map((row) => words(row.def))).toEqual(BM25_INDEX_WRITER_TRIGGERS.map(words));
  });
});
