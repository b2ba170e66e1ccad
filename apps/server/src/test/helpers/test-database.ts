import type { Env } from '../../config/env.schema';
import { openDataSource } from '../../app-data-source';
import type { OpenedDatabase } from '../../app-data-source';
import { openTestConnection } from './test-backend';

export type TestDatabase = OpenedDatabase;

/**
 * A fresh database with pgvector — embedded PGlite behind its private socket, or a new PostgreSQL
 * database when the suites run on PostgreSQL (see test-backend.ts) — migrated unless told otherwise.
 */
export async function startTestDatabase(
  env: Env,
  options: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  return openDataSource(env, { ...options, connection: await openTestConnection(env) });
}
