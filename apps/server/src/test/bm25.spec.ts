import { SqlChunkSearch } from '../modules/rag/repositories/sql-chunk-search';
import { seedDocuments } from './helpers/seed-documents';
import { startTestDatabase } from './helpers/test-database';
import type { TestDatabase } from './helpers/test-database';
import { testEnv } from './helpers/test-env';

const K1 = 0.9;
const B = 0.4;

/** Okapi BM25 with Lucene's idf, computed here from the lexemes Postgres produced for each chunk. */
function expectedBm25(
  queryTerms: string[],
  chunks: { id: string; terms: Map<string, number>; length: number }[],
  qtf: Map<string, number> = new Map(),
): Map<string, number> {
  const n = chunks.length;
  const avg = chunks.reduce((sum, c) => sum + c.length, 0) / n;
  const scores = new Map<string, number>();
  for (const term of queryTerms) {
    const df = chunks.filter((c) => c.terms.has(term)).length;
    if (df === 0) continue;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (const chunk of chunks) {
      const tf = chunk.terms.get(term);
      if (!tf) continue;
      const part =
        ((qtf.get(term) ?? 1) * idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * chunk.length) / avg));
      scores.set(chunk.id, (scores.get(chunk.id) ?? 0) + part);
    }
  }
  return scores;
}

describe('BM25 in SQL', () => {
  let db: TestDatabase;
  let search: SqlChunkSearch;

  const lexicalState = async () => {
    const rows: { id: string; terms: { lexeme: string; n: number }[]; length: number }[] =
      await db.dataSource.query(
        `SELECT c.id, c.lexical_length AS length,
              (SELECT json_agg(json_build_object('lexeme', t.lexeme, 'n', coalesce(array_length(t.positions, 1), 1)))
               FROM unnest(c.tsv) t) AS terms
       FROM chunks c`,
      );
    return rows.map((row) => ({
      id: row.id,
      length: row.length,
      terms: new Map((row.terms ?? []).map((t) => [t.lexeme, t.n])),
    }));
  };

  const assertStatisticsMatchRecount = async () => {
    const [stats] = await db.dataSource.query(
      `SELECT chunk_count::int AS n, total_length::int AS total FROM bm25_corpus`,
    );
    const [actual] = await db.dataSource.query(
      `SELECT count(*)::int AS n, coalesce(sum(lexical_length), 0)::int AS total FROM chunks`,
    );
    expect(stats).toEqual(actual);
    const drift = await db.dataSource.query(
      `SELECT coalesce(t.term, r.term) AS term, t.df, r.df AS recount
       FROM bm25_terms t
       FULL JOIN (SELECT lexeme AS term, count(*)::int AS df FROM chunks, unnest(tsv) GROUP BY lexeme) r
         ON r.term = t.term
       WHERE t.df IS DISTINCT FROM r.df`,
    );
    expect(drift).toEqual([]);
    const [postings] = await db.dataSource.query(
      `SELECT (SELECT count(*) FROM bm25_postings)::int AS kept,
              (SELECT count(*) FROM chunks, unnest(tsv))::int AS recount`,
    );
    expect(postings.kept).toBe(postings.recount);
    const [lengths] = await db.dataSource.query(
      `SELECT count(*)::int AS wrong FROM bm25_postings p JOIN chunks c ON c.id = p.chunk_id
       WHERE p.chunk_length IS DISTINCT FROM c.lexical_length`,
    );
    expect(lengths.wrong).toBe(0);
  };

  beforeAll(async () => {
    db = await startTestDatabase(testEnv());
    search = new SqlChunkSearch(db.dataSource, { k1: K1, b: B, efSearch: 40 });
    await seedDocuments(
      db.dataSource,
      null,
      [
        { title: 'Replication', text: 'Streaming replication ships WAL records to a standby replica.' },
        { title: 'Failover', text: 'Promote the replica during failover; the replica becomes the primary.' },
        { title: 'Backups', text: 'Base backups and WAL archiving allow point in time recovery.' },
        { title: 'Caching', text: 'Redis caches sessions. Evictions are disabled for the queues.' },
      ],
      { unit: 'document', maxChars: 2000, overlapChars: 0 },
    );
  });

  afterAll(async () => {
    await db.close();
  });

  it('equals Okapi BM25 computed by hand from the same lexemes', async () => {
    const query = 'replica failover WAL';
    const [{ terms }] = await db.dataSource.query(
      `SELECT array(SELECT lexeme FROM unnest(to_tsvector('english', $1))) AS terms`,
      [query],
    );
    const expected = expectedBm25(terms, await lexicalState());
    const ranked = await search.lexical(query, 10);
    expect(ranked.length).toBe(expected.size);
    for (const hit of ranked) expect(hit.score).toBeCloseTo(expected.get(hit.chunkId)!, 10);
    const scores = ranked.map((hit) => hit.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('scores a long query on its strongest terms by qtf·idf, exactly as by hand', async () => {
    const maxTerms = 5;
    const pruned = new SqlChunkSearch(db.dataSource, { k1: K1, b: B, efSearch: 40, maxQueryTerms: maxTerms });
    const query =
      'Replica replica failover: promote the standby, ship WAL, base backups, Redis caches and queues.';
    const terms: { term: string; qtf: number }[] = await db.dataSource.query(
      `SELECT t.lexeme AS term, coalesce(array_length(t.positions, 1), 1) AS qtf
       FROM unnest(to_tsvector('english', $1)) AS t`,
      [query],
    );
    const state = await lexicalState();
    const n = state.length;
    const weighted = terms
      .map(({ term, qtf }) => {
        const df = state.filter((c) => c.terms.has(term)).length;
        return { term, qtf, df, weight: qtf * Math.log(1 + (n - df + 0.5) / (df + 0.5)) };
      })
      .filter((t) => t.df > 0)
      .sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1));
    expect(weighted.length).toBeGreaterThan(maxTerms);
    const kept = weighted.slice(0, maxTerms);
    const expected = expectedBm25(
      kept.map((t) => t.term),
      state,
      new Map(kept.map((t) => [t.term, t.qtf])),
    );
    const ranked = await pruned.lexical(query, 10);
    expect(ranked.length).toBe(expected.size);
    for (const hit of ranked) expect(hit.score).toBeCloseTo(expected.get(hit.chunkId)!, 10);
    // The default limit is far above this query's term count: every term is scored.
    const full = expectedBm25(
      weighted.map((t) => t.term),
      state,
      new Map(weighted.map((t) => [t.term, t.qtf])),
    );
    for (const hit of await search.lexical(query, 10))
      expect(hit.score).toBeCloseTo(full.get(hit.chunkId)!, 10);
  });

  it('keeps postings, document frequencies and lengths exact through inserts, updates and deletes', async () => {
    await assertStatisticsMatchRecount();
    await db.dataSource.query(
      `UPDATE chunks SET index_text = index_text || ' replica replica' WHERE index_text LIKE 'Caching%'`,
    );
    await assertStatisticsMatchRecount();
    await db.dataSource.query(`DELETE FROM documents WHERE title = 'Failover'`);
    await assertStatisticsMatchRecount();
    const query = 'replica';
    const expected = expectedBm25(['replica'], await lexicalState());
    for (const hit of await search.lexical(query, 10)) {
      expect(hit.score).toBeCloseTo(expected.get(hit.chunkId)!, 10);
    }
  });

  it('finds nothing for stop words only and does not fail on punctuation or SQL', async () => {
    expect(await search.lexical('the and of', 10)).toEqual([]);
    expect(await search.lexical("'); DROP TABLE chunks; --", 10)).toEqual([]);
    const [{ n }] = await db.dataSource.query(`SELECT count(*)::int AS n FROM chunks`);
    expect(n).toBe(3);
  });
});
