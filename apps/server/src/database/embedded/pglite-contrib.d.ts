// PGlite publishes its contrib extensions under package `exports` only, which the project's module
// resolution does not read; this names the one the embedded database loads, with PGlite's own type.
declare module '@electric-sql/pglite/contrib/pg_trgm' {
  import type { Extension } from '@electric-sql/pglite';
  export const pg_trgm: Extension;
}
