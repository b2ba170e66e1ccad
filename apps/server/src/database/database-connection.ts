import type { Env } from '../config/env.schema';
import { EmbeddedPostgresThread } from './embedded/embedded-postgres-thread';

export type DatabaseDriver = 'pglite' | 'postgres';

/** Where the database is and how to let it go; created before Nest boots and closed after it stops. */
export interface DatabaseConnection {
  driver: DatabaseDriver;
  url: string;
  poolSize: number;
  close(): Promise<void>;
}

export const DATABASE_CONNECTION = Symbol('DATABASE_CONNECTION');

export async function openDatabase(env: Env): Promise<DatabaseConnection> {
  if (env.DATABASE_URL) {
    return {
      driver: 'postgres',
      url: env.DATABASE_URL,
      poolSize: env.DATABASE_POOL_SIZE,
      close: async () => {},
    };
  }
  const embedded = await EmbeddedPostgresThread.start({
    dataDir: env.PGLITE_DATA_DIR,
    maxConnections: env.PGLITE_MAX_CONNECTIONS,
  });
  return {
    driver: 'pglite',
    url: embedded.url,
    // PGlite serves one session: never open more connections than the socket accepts.
    poolSize: Math.min(env.DATABASE_POOL_SIZE, env.PGLITE_MAX_CONNECTIONS),
    close: () => embedded.stop(),
  };
}
