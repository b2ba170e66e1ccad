import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Env } from '../config/env.schema';
import { openDatabase } from '../database/database-connection';
import { CoreModule } from './core.module';

export interface CoreContext {
  /** The Nest application context: `get` a service of the core modules. */
  readonly app: INestApplicationContext;
  /** Closes the context, then the database connection (stops the embedded database). */
  close(): Promise<void>;
}

/**
 * The core modules on the database `env` names (embedded PGlite unless DATABASE_URL is set), as a Nest
 * application context without HTTP: what a command-line tool takes its services from. The context works
 * on that one database (no read replica) and migrates it as it opens; Nest logs nothing, so a tool's
 * output is its own.
 */
export async function createCoreContext(env: Env): Promise<CoreContext> {
  const own: Env = { ...env, DATABASE_READ_URL: undefined, DATABASE_MIGRATIONS_RUN: true };
  const connection = await openDatabase(own);
  let app: INestApplicationContext;
  try {
    app = await NestFactory.createApplicationContext(CoreModule.forRoot(own, connection), {
      logger: false,
      abortOnError: false,
    });
  } catch (error) {
    await connection.close();
    throw error;
  }
  return {
    app,
    close: async () => {
      await app.close();
      await connection.close();
    },
  };
}

/** Runs `work` on a core context over `env`'s database, and closes it whatever happens. */
export async function withCoreContext<T>(
  env: Env,
  work: (app: INestApplicationContext) => Promise<T>,
): Promise<T> {
  const context = await createCoreContext(env);
  try {
    return await work(context.app);
  } finally {
    await context.close();
  }
}
