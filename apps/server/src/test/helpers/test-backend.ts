import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { Env } from '../../config/env.schema';
import { openDatabase } from '../../database/database-connection';
import type { DatabaseConnection } from '../../database/database-connection';

/**
 * Which database the integration suites run on. The jest config passes TEST_DATABASE_URL through as the
 * global `LUMINA_TEST_DATABASE_URL`: unset (the default), every suite runs on embedded PGlite; set to a
 * PostgreSQL (with pgvector) URL on which the user may CREATE DATABASE, every suite that asks for an
 * in-memory database gets a fresh PostgreSQL database instead, created for it and dropped afterwards.
 */
export type TestBackend = 'pglite' | 'postgres';

const adminUrl = (globalThis as { LUMINA_TEST_DATABASE_URL?: string }).LUMINA_TEST_DATABASE_URL || undefined;

export const TEST_BACKEND: TestBackend = adminUrl ? 'postgres' : 'pglite';

/** The maintenance URL of the PostgreSQL the suites run on (TEST_DATABASE_URL), or undefined on PGlite. */
export function testPostgresAdminUrl(): string | undefined {
  return adminUrl;
}

export interface ScratchDatabase {
  name: string;
  url: string;
  /** Drops the database, closing whatever sessions still use it. */
  drop(): Promise<void>;
}

async function admin<T>(url: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database on the test PostgreSQL, named uniquely for this process. */
export async function createScratchDatabase(url: string, label = 'test'): Promise<ScratchDatabase> {
  const name = `lumina_${label}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(url, async (client) => {
    await client.query(`CREATE DATABASE ${name}`);
  });
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    name,
    url: target.toString(),
    drop: () =>
      admin(url, async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }),
  };
}

/**
 * The connection a test app or test data source opens: on PostgreSQL a fresh database for each call
 * (as PGlite's `memory://` is fresh each time), dropped when the connection closes. A test that names
 * its own database (DATABASE_URL) or an on-disk PGlite directory keeps it.
 */
export async function openTestConnection(env: Env): Promise<DatabaseConnection> {
  if (!adminUrl || env.DATABASE_URL || env.PGLITE_DATA_DIR !== 'memory://') return openDatabase(env);
  const scratch = await createScratchDatabase(adminUrl);
  return {
    driver: 'postgres',
    url: scratch.url,
    poolSize: env.DATABASE_POOL_SIZE,
    close: () => scratch.drop(),
  };
}
