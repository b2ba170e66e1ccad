module.exports = require('../../jest.preset.js')(__dirname, {
  displayName: 'bench',
  // The bulk-load spec opens embedded databases; keep them from fighting over two cores.
  maxWorkers: 1,
  testTimeout: 60_000,
  // TEST_DATABASE_URL (a PostgreSQL with pgvector that may CREATE DATABASE): the bulk-load spec runs on a
  // fresh database there instead of on embedded PGlite (src/scale/test-bench-database.ts).
  globals: { LUMINA_TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? '' },
});
