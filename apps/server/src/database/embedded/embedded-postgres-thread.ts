import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startModuleThread } from '../../common/module-thread';
import type { EmbeddedPostgresOptions } from './embedded-postgres';

export type EmbeddedPostgresRequest = { type: 'stop' };
export type EmbeddedPostgresReply =
  | { type: 'ready'; url: string; dataDir: string; maxConnections: number }
  | { type: 'stopped' }
  | { type: 'failed'; message: string };

/**
 * The embedded database (EmbeddedPostgres: PGlite behind its Postgres socket) on a thread of its own.
 * PGlite executes each statement synchronously; on the API's thread a large write (a document's
 * chunks with their BM25 postings) or a burst of searches held every other request, /health/live
 * included, for as long. Clients reach it over its private Unix socket as before, so nothing else changes.
 */
export class EmbeddedPostgresThread {
  private constructor(
    private readonly worker: Worker,
    readonly url: string,
    readonly dataDir: string,
    readonly maxConnections: number,
  ) {}

  static async start(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresThread> {
    const worker = startModuleThread(join(__dirname, 'embedded-postgres.thread'), {
      workerData: { options },
    });
    const ready = await new Promise<Extract<EmbeddedPostgresReply, { type: 'ready' }>>((resolve, reject) => {
      worker.once('message', (reply: EmbeddedPostgresReply) => {
        if (reply.type === 'ready') resolve(reply);
        else
          reject(new Error(reply.type === 'failed' ? reply.message : 'the embedded database did not start'));
      });
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(new Error(`the embedded database's thread stopped (exit ${code})`)),
      );
    });
    worker.removeAllListeners('exit');
    worker.removeAllListeners('error');
    worker.on('error', (error) => console.error(`the embedded database's thread crashed: ${error.message}`));
    return new EmbeddedPostgresThread(worker, ready.url, ready.dataDir, ready.maxConnections);
  }

  /** Stop accepting connections, close PGlite (flushes to disk), and end the thread. */
  async stop(): Promise<void> {
    const done = new Promise<void>((resolve, reject) => {
      this.worker.on('message', (reply: EmbeddedPostgresReply) => {
        if (reply.type === 'stopped') resolve();
        if (reply.type === 'failed') reject(new Error(reply.message));
      });
      this.worker.once('exit', () => resolve());
    });
    this.worker.postMessage({ type: 'stop' } satisfies EmbeddedPostgresRequest);
    await done;
    await this.worker.terminate();
  }
}
