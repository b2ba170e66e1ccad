import { DataSource } from 'typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { SEARCH_DATA_SOURCE } from '../database/database.module';
import { readJson } from './helpers/http';
import type { Json } from './helpers/http';
import { PostgresCluster } from './helpers/postgres-cluster';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { TEST_BACKEND } from './helpers/test-backend';
import { testEnv } from './helpers/test-env';

/**
 * Scale-out on PostgreSQL's own replication: a primary and a hot standby (pg_basebackup, streaming) of
 * the machine's PostgreSQL 15, each in a temporary directory on a free port. The app writes to the
 * primary (DATABASE_URL) and searches the standby (DATABASE_READ_URL). With replay paused on the
 * standby, a document just indexed on the primary is not found; once replay resumes, it is. Needs the
 * PostgreSQL programs, so it runs with the PostgreSQL suites (TEST_DATABASE_URL).
 */
const describeOnPostgres = TEST_BACKEND === 'postgres' ? describe : describe.skip;

describeOnPostgres('search from a streaming replica (DATABASE_READ_URL), writes to the primary', () => {
  let workspace: string;
  let primary: PostgresCluster;
  let standby: PostgresCluster;
  let server: TestApp;

  const search = async (query: string, ranker: 'bm25' | 'hybrid'): Promise<Json> => {
    const response = await fetch(`${server.baseUrl}/rag/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, settings: { ranker, topK: 5 } }),
    });
    expect(response.status).toBe(200);
    return readJson(response);
  };

  const ingest = async (title: string, text: string): Promise<string> => {
    const response = await fetch(`${server.baseUrl}/documents/text`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title, text }),
    });
    expect(response.status).toBe(202);
    const { id } = await readJson(response);
    for (let i = 0; i < 300; i++) {
      const document = await readJson(await fetch(`${server.baseUrl}/documents/${id}`));
      if (document.status === 'indexed') return id;
      if (document.status === 'failed') throw new Error(`ingestion failed: ${document.error}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the document was not indexed within 30 s');
  };

  /** Waits until the standby has replayed everything the primary has written so far. */
  const caughtUp = async (): Promise<void> => {
    const [{ lsn }] = await primary.query<{ lsn: string }>(`SELECT pg_current_wal_lsn()::text AS lsn`);
    for (let i = 0; i < 300; i++) {
      const [{ behind }] = await standby.query<{ behind: boolean }>(
        `SELECT pg_last_wal_replay_lsn() < '${lsn}'::pg_lsn AS behind`,
      );
      if (!behind) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the standby did not catch up within 30 s');
  };

  const titles = (body: Json): string[] => body.results.map((r: Json) => r.documentTitle);

  beforeAll(async () => {
    workspace = await PostgresCluster.workspace();
    primary = await PostgresCluster.primary(workspace);
    standby = await PostgresCluster.standby(workspace, primary);
    await primary.query(`CREATE DATABASE lumina`);
    await caughtUp();
    server = await startTestApp(
      testEnv({
        DATABASE_URL: primary.url('lumina'),
        DATABASE_READ_URL: standby.url('lumina'),
        EMBEDDINGS_PROVIDER: 'hash',
        WORKERS_IN_PROCESS: 'true',
      }),
    );
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await standby?.stop();
    await primary?.stop();
    if (workspace) PostgresCluster.remove(workspace);
  });

  it('is a real hot standby, and the search ports use it', async () => {
    const [{ recovery }] = await standby.query<{ recovery: boolean }>(
      `SELECT pg_is_in_recovery() AS recovery`,
    );
    expect(recovery).toBe(true);
    const [{ senders }] = await primary.query<{ senders: number }>(
      `SELECT count(*)::int AS senders FROM pg_stat_replication WHERE state = 'streaming'`,
    );
    expect(senders).toBe(1);
    const read = server.app.get<DataSource>(SEARCH_DATA_SOURCE);
    expect(read).not.toBe(server.app.get(DataSource));
    expect(read).toBe(server.app.get(getDataSourceToken('read-replica')));
    const [{ readOnly }] = await read.query(`SELECT current_setting('transaction_read_only') AS "readOnly"`);
    expect(readOnly).toBe('on');
  });

  it('finds a document ingested on the primary once the standby has replayed it, not before', async () => {
    await ingest('Glacier survey', 'Meltwater lakes on the glacier tongue grew by a third over the summer.');
    await caughtUp();
    expect(titles(await search('meltwater glacier lakes', 'bm25'))).toEqual(['Glacier survey']);

    // Replay paused: the primary has the next document, the standby (and so the search) does not yet.
    await standby.query(`SELECT pg_wal_replay_pause()`);
    await ingest('Dune drift', 'Coastal dunes drift inland when winter storms strip their grass cover.');
    const [{ onPrimary }] = await primary.query<{ onPrimary: number }>(
      `SELECT count(*)::int AS "onPrimary" FROM documents WHERE title = 'Dune drift' AND status = 'indexed'`,
      'lumina',
    );
    expect(onPrimary).toBe(1);
    expect(titles(await search('coastal dunes drift storms', 'bm25'))).toEqual([]);

    await standby.query(`SELECT pg_wal_replay_resume()`);
    await caughtUp();
    // Hybrid too: the query's embedding is cached on the primary (a write the standby would refuse).
    const cached = async () =>
      (await primary.query<{ n: number }>(`SELECT count(*)::int AS n FROM embedding_cache`, 'lumina'))[0].n;
    const before = await cached();
    expect(titles(await search('coastal dunes drift storms', 'hybrid'))[0]).toBe('Dune drift');
    expect(await cached()).toBe(before + 1);
  });
});
