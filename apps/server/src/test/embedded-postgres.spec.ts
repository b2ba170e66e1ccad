import { Pool } from 'pg';
import { EmbeddedPostgres } from '../database/embedded/embedded-postgres';

describe('embedded PGlite behind the Postgres socket', () => {
  let embedded: EmbeddedPostgres;

  beforeAll(async () => {
    embedded = await EmbeddedPostgres.start({ dataDir: 'memory://', maxConnections: 4 });
  });

  afterAll(async () => {
    await embedded.stop();
  });

  it('keeps concurrent parameterised queries and transactions from several connections apart', async () => {
    const pool = new Pool({ connectionString: embedded.url, max: 4 });
    try {
      // Different parameter counts: an interleaved Parse/Bind fails with "bind message supplies …".
      const plain = (i: number) =>
        i % 2 === 0
          ? pool.query('SELECT $1::int + $2::int AS v', [i, 1]).then((r) => r.rows[0].v === i + 1)
          : pool.query('SELECT $1::int * 2 AS v', [i]).then((r) => r.rows[0].v === i * 2);
      const inTransaction = async (i: number) => {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query(`SELECT set_config('application_name', $1, true)`, [`t${i}`]);
          const { rows } = await client.query('SELECT $1::int - $2::int - $3::int AS v', [i, 1, 1]);
          await client.query('COMMIT');
          return rows[0].v === i - 2;
        } finally {
          client.release();
        }
      };
      const results = await Promise.all(
        Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? inTransaction(i) : plain(i))),
      );
      expect(results.every(Boolean)).toBe(true);
    } finally {
      await pool.end();
    }
  });

  it('lets the other connections go on when one disconnects in the middle of its work', async () => {
    const other = await EmbeddedPostgres.start({ dataDir: 'memory://', maxConnections: 4 });
    const pool = new Pool({ connectionString: other.url, max: 3 });
    try {
      const client = await pool.connect();
      await client.query('BEGIN');
      await client.query('SELECT 1');
      client.release(true); // destroy the connection inside an open transaction
      const { rows } = await pool.query('SELECT $1::text AS v', ['still answering']);
      expect(rows[0].v).toBe('still answering');
    } finally {
      await pool.end();
      await other.stop();
    }
  });
});
