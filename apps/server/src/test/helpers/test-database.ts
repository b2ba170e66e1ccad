import type { Env } from '../../config/env.schema';
import { openDataSource } from '../../database/open-data-source';
import type { OpenedDatabase } from '../../database/open-data-source';

export type TestDatabase = OpenedDatabase;

/** A fresh embedded PGlite (with pgvector) served on loopback, migrated unless told otherwise. */
export function startTestDatabase(env: Env, options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  return openDataSource(env, options);
}
