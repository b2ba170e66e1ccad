import type { INestApplication } from '@nestjs/common';
import { createHttpApp } from '../../bootstrap/create-http-app';
import type { Env } from '../../config/env.schema';
import type { DatabaseConnection } from '../../database/database-connection';
import { closeWithin } from './bounded-close';
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
    // Bounded, so a hook always ends: the app's BullMQ workers may be retrying against a Redis that a
    // test killed, and then their clean close never comes.
    close: async () => {
      await closeWithin('the test app', () => app.close());
      await closeWithin('the test database', () => connection.close());
    },
  };
}
