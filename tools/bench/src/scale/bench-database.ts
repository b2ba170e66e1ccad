import { mkdirSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions, freePort, PGLITE_EXTENSIONS, UsageError } from '@lumina/server-core';
import type { DatabaseConnection, EmbeddingStorage } from '@lumina/server-core';
import { BENCH_SCHEMA_SQL } from './bench-schema.sql';
import { copyFromStdin } from './pg-copy-from';

/**
 * A fresh database for one bench run, migrated with the app's migrations for the storage type:
 * - `dataSource`: TypeORM over the Postgres protocol, as the app talks to its database (SqlChunkSearch);
 * - `copyFrom` / `query`: a direct handle for the bulk load (binary COPY) and the bench's own SQL.
 */
export interface BenchDatabase {
  readonly description: string;
  readonly dataSource: DataSource;
  /** Server messages (NOTICE/WARNING) seen on the direct handle, e.g. pgvector's HNSW memory notice. */
  readonly notices: string[];
  copyFrom(sql: string, data: Uint8Array): Promise<number>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * Embedded PGlite opened directly (PGlite's COPY reads its input from the /dev/blob device) and served
 * on loopback for TypeORM. PGlite runs one session, so the pool holds one connection.
 */
export async function openPgliteBenchDatabase(
  dataDir: string | null,
  dimension: number,
  storage: EmbeddingStorage,
): Promise<BenchDatabase> {
  let location = 'memory://';
  if (dataDir) {
    location = resolve(dataDir);
    mkdirSync(location, { recursive: true });
    if (readdirSync(location).length > 0) {
      throw new Error(`--data-dir ${location} is not empty: the bench loads into a fresh database`);
    }
  }
  const db = await PGlite.create({ dataDir: location, extensions: PGLITE_EXTENSIONS });
  await db.exec(BENCH_SCHEMA_SQL.vectorExtension);
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 1 });
  await server.start();
  const connection: DatabaseConnection = {
    driver: 'pglite',
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    poolSize: 1,
    close: async () => {
      await server.stop();
      await db.close();
    },
  };
  const dataSource = new DataSource(buildDataSourceOptions(connection, dimension, storage));
  const notices: string[] = [];
  try {
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
  } catch (error) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await connection.close();
    throw error;
  }
  const onNotice = (notice: { severity?: string; message?: string }) =>
    notices.push(`${notice.severity ?? 'NOTICE'}: ${notice.message ?? ''}`);
  return {
    description: `embedded PGlite ${dataDir ? `in ${location}` : 'in memory'}`,
    dataSource,
    notices,
    copyFrom: async (sql, data) => {
      const result = await db.query(sql, [], { blob: new Blob([data]), onNotice });
      return result.affectedRows ?? 0;
    },
    query: async <T>(sql: string, params: unknown[] = []) =>
      (await db.query<T>(sql, params, { onNotice })).rows,
    close: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      await connection.close();
    },
  };
}

/**
 * A PostgreSQL with pgvector (DATABASE_URL). Everything happens in a schema of the bench's own
 * (dropped and re-created, dropped again at the end unless kept), never in the app's tables. With
 * `reuse`, a schema an earlier run kept is opened as it is, and only the migrations it lacks run.
 */
export async function openPostgresBenchDatabase(
  url: string,
  schema: string,
  dimension: number,
  storage: EmbeddingStorage,
  reuse = false,
): Promise<BenchDatabase & { dropSchema(): Promise<void> }> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  const options = `-c search_path=${schema},public`;
  const client = new Client({ connectionString: url, options });
  const notices: string[] = [];
  client.on('notice', (notice) => notices.push(`${notice.severity ?? 'NOTICE'}: ${notice.message}`));
  await client.connect();
  if (reuse) {
    const [{ kept }] = (await client.query(BENCH_SCHEMA_SQL.schemaExists, [schema])).rows as {
      kept: boolean;
    }[];
    if (!kept) {
      await client.end();
      throw new UsageError(`--reuse: no schema ${schema} to reuse (run once with --keep first)`);
    }
  } else {
    await client.query(BENCH_SCHEMA_SQL.dropSchema(schema));
    await client.query(BENCH_SCHEMA_SQL.createSchema(schema));
  }
  // Extensions are one per database: in public, every bench schema sees their types and functions
  // (created by the migrations or TypeORM inside the first schema, the second storage's would not).
  for (const sql of BENCH_SCHEMA_SQL.sharedExtensions) await client.query(sql);
  const connection: DatabaseConnection = { driver: 'postgres', url, poolSize: 2, close: async () => {} };
  const base = buildDataSourceOptions(connection, dimension, storage);
  const dataSource = new DataSource({
    ...base,
    schema,
    extra: { ...(base.extra as object), options },
  } as typeof base);
  try {
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
  } catch (error) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await client.end();
    throw error;
  }
  return {
    description: `PostgreSQL (DATABASE_URL), schema ${schema}`,
    dataSource,
    notices,
    copyFrom: (sql, data) => copyFromStdin(client, sql.replace(/'\/dev\/blob'/i, 'STDIN'), data),
    query: async <T>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as T[],
    dropSchema: async () => {
      await client.query(BENCH_SCHEMA_SQL.dropSchema(schema));
    },
    close: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      await client.end();
    },
  };
}
