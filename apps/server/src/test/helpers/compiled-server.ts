import { join } from 'node:path';
import { REPO_ROOT, buildServer, startWorker } from '../fixtures/ingestion/worker-process';
import type { WorkerProcess } from '../fixtures/ingestion/worker-process';
import { testEnv } from './test-env';

/** The one build the compiled-server tests share (incremental: only what changed is compiled again). */
export async function buildMainEntry(): Promise<string> {
  const workerEntry = await buildServer(join(REPO_ROOT, 'tmp/ingestion-worker-build'));
  return join(workerEntry, '..', 'main.js');
}

/**
 * The environment of a compiled API process on loopback: embedded database and uploads under `dir`,
 * workers in process, a private queue prefix, quiet logs; `overrides` on top (e.g. REDIS_URL).
 */
export function compiledServerEnv(
  port: number,
  dir: string,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    PGLITE_DATA_DIR: join(dir, 'pglite'),
    UPLOAD_DIR: join(dir, 'uploads'),
    REDIS_URL: testEnv().REDIS_URL,
    QUEUE_PREFIX: testEnv().QUEUE_PREFIX,
    WORKERS_IN_PROCESS: 'true',
    ...overrides,
  };
}

/** Starts `node main.js` with exactly `env` and waits until GET /health answers 200. */
export async function startCompiledServer(
  mainEntry: string,
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<{ server: WorkerProcess; baseUrl: string }> {
  const server = startWorker(mainEntry, env);
  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answered = await fetch(`${baseUrl}/health`).then(
      (response) => response.status,
      () => null,
    );
    if (answered === 200) return { server, baseUrl };
    if (server.child.exitCode !== null) throw new Error(`the server exited:\n${server.output()}`);
    if (Date.now() > deadline) {
      await server.kill();
      throw new Error(`the server did not start:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
