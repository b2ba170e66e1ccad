import { parentPort, workerData } from 'node:worker_threads';
import { EmbeddedPostgres } from './embedded-postgres';
import type { EmbeddedPostgresOptions } from './embedded-postgres';
import type { EmbeddedPostgresReply, EmbeddedPostgresRequest } from './embedded-postgres-thread';

/** The embedded database's own thread: PGlite and its socket server, until the parent says stop. */
const port = parentPort;
if (!port) throw new Error('embedded-postgres.thread runs as a worker thread of EmbeddedPostgresThread');

EmbeddedPostgres.start((workerData as { options: EmbeddedPostgresOptions }).options).then(
  (embedded) => {
    port.on('message', (message: EmbeddedPostgresRequest) => {
      if (message.type !== 'stop') return;
      embedded.stop().then(
        () => {
          port.postMessage({ type: 'stopped' } satisfies EmbeddedPostgresReply);
          port.close();
        },
        (error: unknown) =>
          port.postMessage({
            type: 'failed',
            message: (error as Error).message,
          } satisfies EmbeddedPostgresReply),
      );
    });
    port.postMessage({
      type: 'ready',
      url: embedded.url,
      dataDir: embedded.dataDir,
      maxConnections: embedded.maxConnections,
    } satisfies EmbeddedPostgresReply);
  },
  (error: unknown) => {
    port.postMessage({ type: 'failed', message: (error as Error).message } satisfies EmbeddedPostgresReply);
    port.close();
  },
);
