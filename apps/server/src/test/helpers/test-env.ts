import { validateEnv } from '../../config/env.schema';
import type { Env } from '../../config/env.schema';

/** A validated env for tests: quiet logs, embedded database in memory, the machine's Redis, USE-lite. */
export function testEnv(overrides: Record<string, string> = {}): Env {
  return validateEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PGLITE_DATA_DIR: 'memory://',
    PORT: '0',
    // Each test app gets its own BullMQ keys, so parallel runs never take each other's jobs.
    QUEUE_PREFIX: `test-${process.pid}-${Math.random().toString(36).slice(2, 10)}`,
    // Suites fire many searches in a burst; the rate limit has its own tests.
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_WRITES_PER_MINUTE: '1000000',
    // The default (auto) would take all-MiniLM-L6-v2 where it is fetched and USE-lite where not: a suite's
    // rankings must not depend on the machine, so suites name their embedder (this one unless overridden).
    EMBEDDINGS_PROVIDER: 'local',
    ...overrides,
  });
}
