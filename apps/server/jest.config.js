module.exports = require('../../jest.preset.js')(__dirname, {
  displayName: 'server',
  // Integration specs boot their own embedded databases; keep them from fighting over two cores.
  maxWorkers: 1,
  // Also every hook's: booting the test app on embedded PGlite took 42–51 s at a load average of 14–16
  // on 2 cores (src/test/helpers/hook-timeouts.ts).
  testTimeout: 180_000,
  // A BullMQ QueueEvents reader whose Redis went away keeps a reconnect timer alive after disconnect()
  // (the Redis-down health spec); never let such a leftover hang the run once every test has finished.
  forceExit: true,
  // TEST_DATABASE_URL (a PostgreSQL with pgvector that may CREATE DATABASE): the integration suites run
  // on it, a fresh database each, instead of on embedded PGlite (src/test/helpers/test-backend.ts).
  // CI=true: suites that need the in-process models fail when they are missing, instead of skipping.
  globals: {
    LUMINA_TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? '',
    LUMINA_CI: process.env.CI === 'true',
  },
});
