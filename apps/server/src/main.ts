import 'reflect-metadata';
import { Logger } from 'nestjs-pino';
import { createHttpApp } from './bootstrap/create-http-app';
import { drainHttp } from './bootstrap/graceful-shutdown';
import { exitOnBootFailure, onShutdownSignal } from './bootstrap/process-lifecycle';
import { loadEnv } from './config/load-env';
import { openDatabase } from './database/database-connection';
import { assertSafeListenAddress } from './modules/auth/local-mode';

/** HTTP API entry point. With WORKERS_IN_PROCESS=true (the default) the BullMQ workers run here too. */
async function main(): Promise<void> {
  const env = loadEnv();
  assertSafeListenAddress(env); // before the database opens (createHttpApp checks it again)
  const connection = await openDatabase(env);
  const app = await createHttpApp(env, connection).catch(async (error: unknown) => {
    await connection.close();
    throw error;
  });
  await app.listen(env.PORT, env.HOST);
  app
    .get(Logger)
    .log(
      `Lumina API listening on ${await app.getUrl()} (docs at /api/docs); database: ${connection.driver}` +
        (env.WORKERS_IN_PROCESS ? '; workers in process' : ''),
    );
  onShutdownSignal(async () => {
    const drained = await drainHttp(app);
    app
      .get(Logger)
      .log(
        `Stopping: ${drained.chatStreams} chat stream(s) ended with their answers stored` +
          (drained.cutOff ? `; ${drained.cutOff} request(s) cut off` : ''),
      );
    await app.close();
    await connection.close();
  });
}

main().catch(exitOnBootFailure);
