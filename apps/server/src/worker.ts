import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { exitOnBootFailure, onShutdownSignal } from './bootstrap/process-lifecycle';
import { loadEnv } from './config/load-env';
import { openDatabase } from './database/database-connection';
import { WorkerModule } from './worker.module';

/** BullMQ workers without the HTTP API; needs DATABASE_URL (the embedded database lives in the API process). */
async function main(): Promise<void> {
  const env = loadEnv();
  if (!env.DATABASE_URL) {
    throw new Error(
      'worker.ts runs workers in their own process and needs a shared database: set DATABASE_URL. ' +
        'With the embedded database, the API process runs the workers itself (WORKERS_IN_PROCESS=true).',
    );
  }
  const connection = await openDatabase(env);
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(env, connection), {
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  await app.init();
  app.get(Logger).log('Lumina workers started');
  onShutdownSignal(async () => {
    await app.close();
    await connection.close();
  });
}

main().catch(exitOnBootFailure);
