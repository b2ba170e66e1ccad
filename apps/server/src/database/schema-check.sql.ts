/** The stored width of the chunks' vectors (`dimension`); no row before the schema exists. */
export const EMBEDDING_DIMENSION_SQL = `
  SELECT atttypmod AS dimension FROM pg_attribute
  WHERE attrelid = 'chunks'::regclass AND attname = 'embedding' AND NOT attisdropped`;

/** The chunks' vector column: its type (`vector`, `halfvec`) and width; no row before the schema exists. */
export const EMBEDDING_COLUMN_SQL = `
  SELECT t.typname AS type, a.atttypmod AS dimension
  FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
  WHERE a.attrelid = to_regclass('chunks') AND a.attname = 'embedding' AND NOT a.attisdropped`;

/** Whether migration `$1` has not run yet (or no migration has). */
export const MIGRATION_PENDING_SQL = `
  SELECT to_regclass('migrations') IS NULL
         OR NOT EXISTS (SELECT 1 FROM migrations WHERE name = $1) AS pending`;
