/** The bench's own database set-up: the vector extension, and a schema of its own on a shared PostgreSQL. */
export const BENCH_SCHEMA_SQL = {
  vectorExtension: 'CREATE EXTENSION IF NOT EXISTS vector',
  /** In public, where every bench schema sees their types and functions. */
  sharedExtensions: [
    'CREATE EXTENSION IF NOT EXISTS vector SCHEMA public',
    'CREATE EXTENSION IF NOT EXISTS "uuid-ossp" SCHEMA public',
  ],
  /** `schema` is checked to be a plain identifier before it gets here. */
  dropSchema: (schema: string) => `DROP SCHEMA IF EXISTS ${schema} CASCADE`,
  createSchema: (schema: string) => `CREATE SCHEMA ${schema}`,
  schemaExists: `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS kept`,
} as const;
