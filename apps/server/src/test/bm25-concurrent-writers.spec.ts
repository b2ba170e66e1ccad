import { Client } from 'pg';
import { TEST_BACKEND } from './helpers/test-backend';
import { startTestDatabase } from './helpers/test-database';
import type { TestDatabase } from './helpers/test-database';
import { testEnv } from './helpers/test-env';

/**
 * Two writers (sessions) on real PostgreSQL, each inside an open transaction writing chunks that share
 * terms, in several statements and in opposite term orders: neither waits for the other's statistics rows
 * (a lock wait longer than lock_timeout fails the statement), no deadlock, and after both commit the
 * BM25 statistics equal a recount. PGlite serves one session, so there is nothing to race there.
 */
const describeOnPostgres = TEST_BACKEND === 'postgres' ? describe : describe.skip;

describeOnPostgres('BM25 statistics under concurrent writers (PostgreSQL)', () => {
  let db: TestDatabase;
  const clients: Client[] = [];

  const session = async (): Promise<{ client: Client; slot: number }> => {
    const client = new Client({ connectionString: db.connection.url });
    await client.connect();
    clients.push(client);
    const { rows } = await client.query(`SELECT bm25_writer_slot() AS slot`);
    return { client, slot: rows[0].slot };
  };

  const insertChunk = (client: Client, documentId: string, ordinal: number, text: string) =>
    client.query(
      `INSERT INTO chunks (document_id, ordinal, text, index_text, span_start, span_end)
       VALUES ($1, $2, $3, $3, 0, length($3))`,
      [documentId, ordinal, text],
    );

  beforeAll(async () => {
    db = await startTestDatabase(testEnv());
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    await db?.close();
  });

  it('never makes a writer wait for another, and keeps the statistics exact', async () => {
    // Two sessions whose backends fall in different slots (a shared slot would share rows).
    const first = await session();
    let second = await session();
    while (second.slot === first.slot) second = await session();

    const [a, b] = await db.dataSource.query(
      `INSERT INTO documents (title, content_hash, status) VALUES ('A', 'ha', 'chunking'), ('B', 'hb', 'chunking')
       RETURNING id`,
    );
    for (const { client } of [first, second]) {
      await client.query('BEGIN');
      await client.query(`SET LOCAL lock_timeout = '2s'`);
    }
    // Interleaved statements, each transaction taking the shared terms in the opposite order.
    await insertChunk(first.client, a.id, 0, 'replica failover promotes the standby');
    await insertChunk(second.client, b.id, 0, 'standby promotes failover replica quickly');
    await insertChunk(second.client, b.id, 1, 'replica lag delays the standby');
    await insertChunk(first.client, a.id, 1, 'standby replay lag behind the replica');
    // Removals and updates too, while the other transaction is still open.
    await first.client.query(
      `UPDATE chunks SET index_text = 'replica standby rebuilt' WHERE document_id = $1 AND ordinal = 1`,
      [a.id],
    );
    await second.client.query(`DELETE FROM chunks WHERE document_id = $1 AND ordinal = 0`, [b.id]);
    await first.client.query('COMMIT');
    await second.client.query('COMMIT');

    const [corpus] = await db.dataSource.query(
      `SELECT (SELECT chunk_count FROM bm25_corpus)::int AS kept, (SELECT count(*) FROM chunks)::int AS actual,
              (SELECT total_length FROM bm25_corpus)::int AS kept_length,
              (SELECT coalesce(sum(lexical_length), 0) FROM chunks)::int AS actual_length`,
    );
    expect(corpus.kept).toBe(3);
    expect(corpus).toEqual({
      kept: 3,
      actual: 3,
      kept_length: corpus.actual_length,
      actual_length: corpus.actual_length,
    });
    const drift = await db.dataSource.query(
      `SELECT coalesce(t.term, r.term) AS term FROM bm25_terms t
       FULL JOIN (SELECT lexeme AS term, count(*) AS df FROM chunks, unnest(tsv) GROUP BY lexeme) r ON r.term = t.term
       WHERE t.df IS DISTINCT FROM r.df`,
    );
    expect(drift).toEqual([]);
    // The shared terms were counted in both writers' slots.
    const [{ slots }] = await db.dataSource.query(
      `SELECT count(DISTINCT slot)::int AS slots FROM bm25_term_slots WHERE term = 'replica'`,
    );
    expect(slots).toBe(2);
    // So were their bounds (largest tf, smallest length per tf), each writer in its own slot's row, and
    // they cover every posting left after the update and the delete.
    const [{ boundSlots }] = await db.dataSource.query(
      `SELECT count(DISTINCT slot)::int AS "boundSlots" FROM bm25_term_bounds WHERE term = 'replica'`,
    );
    expect(boundSlots).toBe(2);
    const unsafe = await db.dataSource.query(
      `SELECT p.term FROM bm25_postings p
       JOIN (SELECT collection_id, term, max(max_tf) AS max_tf, min(min_length_per_tf) AS ratio
             FROM bm25_term_bounds GROUP BY collection_id, term) b
         ON b.collection_id = p.collection_id AND b.term = p.term
       GROUP BY p.term, b.max_tf, b.ratio
       HAVING max(p.tf) > b.max_tf OR min(p.chunk_length::float8 / p.tf) < b.ratio`,
    );
    expect(unsafe).toEqual([]);
    const [{ unbounded }] = await db.dataSource.query(
      `SELECT count(*)::int AS unbounded FROM bm25_postings p
       WHERE NOT EXISTS (SELECT 1 FROM bm25_term_bounds b WHERE b.collection_id = p.collection_id AND b.term = p.term)`,
    );
    expect(unbounded).toBe(0);
  });
});
