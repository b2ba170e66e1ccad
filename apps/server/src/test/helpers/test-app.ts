import type { INestApplication } from '@nestjs/common';
import { createHttpApp } from '../../bootstrap/create-http-app';
import type { Env } from '../../config/env.schema';
import type { DatabaseConnection } from '../../database/database-connection';
import { openTestConnection } from './test-backend';

export interface TestApp {
  app: INestApplication;
  connection: DatabaseConnection;
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * The real HTTP app on a free loopback port, over a fresh database (embedded PGlite, or PostgreSQL when
 * the suites run on it), migrated at boot.
 */
export async function startTestApp(env: Env): Promise<TestApp> {
  const connection = await openTestConnection(env);
  let app: INestApplication;
  try {
    app = await createHttpApp(env, connection);
    await app.listen(0, '127.0.0.1');
  } catch (error) {
    await connection.close();
    throw error;
  }
  const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return {
    app,
    connection,
    baseUrl,
    close: async () => {
      await app.close();
      await connection.close();
    },
  };
}
