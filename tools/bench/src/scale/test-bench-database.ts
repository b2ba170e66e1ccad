import { randomBytes } from 'node:crypto';
import type { EmbeddingStorage } from '@lumina/server-core';
import { openPgliteBenchDatabase, openPostgresBenchDatabase } from './bench-database';
import type { BenchDatabase } from './bench-database';
import { adminQuery } from '../sql/admin-query';
import { createDatabaseSql, dropDatabaseSql } from '../sql/scratch-database.sql';

/**
 * Where the bench's database specs run. The jest config passes TEST_DATABASE_URL through as the global
 * `LUMINA_TEST_DATABASE_URL`: unset, on embedded PGlite in memory; set to a PostgreSQL (with pgvector) on
 * which the user may CREATE DATABASE, on a fresh database there, dropped afterwards.
 */
const adminUrl = (globalThis as { LUMINA_TEST_DATABASE_URL?: string }).LUMINA_TEST_DATABASE_URL || undefined;

export const TEST_BACKEND: 'pglite' | 'postgres' = adminUrl ? 'postgres' : 'pglite';

/** A fresh bench database: embedded PGlite in memory, or a scratch PostgreSQL database dropped on close. */
export async function openTestBenchDatabase(
  dimension: number,
  storage: EmbeddingStorage,
): Promise<BenchDatabase> {
  if (!adminUrl) return openPgliteBenchDatabase(null, dimension, storage);
  const name = `lumina_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(adminUrl, createDatabaseSql(name));
  const drop = () => adminQuery(adminUrl, dropDatabaseSql(name));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    const db = await openPostgresBenchDatabase(url.toString(), 'bench', dimension, storage);
    return {
      ...db,
      close: async () => {
        await db.close();
        await drop();
      },
    };
  } catch (error) {
    await drop();
    throw error;
  }
}
