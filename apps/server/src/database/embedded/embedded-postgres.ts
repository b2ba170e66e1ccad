import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { freePort } from '../../common/net/free-port';

export interface EmbeddedPostgresOptions {
  /** Directory holding the database files; created if missing. Use 'memory://' for a throwaway database. */
  dataDir: string;
  /** 0 picks a free port on loopback. */
  port: number;
  maxConnections: number;
}

/**
 * PGlite (PostgreSQL compiled to WebAssembly) with pgvector, served over the Postgres wire protocol on
 * loopback so TypeORM and `pg` talk to it as to any PostgreSQL. PGlite runs one session on one thread:
 * every connection shares it, so the pool must not exceed maxConnections and the socket server is
 * stopped before PGlite is closed.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    readonly url: string,
    readonly dataDir: string,
    readonly maxConnections: number,
  ) {}

  static async start(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
    const inMemory = options.dataDir.startsWith('memory://');
    const dataDir = inMemory ? options.dataDir : resolve(options.dataDir);
    if (!inMemory) mkdirSync(dataDir, { recursive: true });
    const db = await PGlite.create({ dataDir, extensions: { vector, pg_trgm } });
    await db.exec('CREATE EXTENSION IF NOT EXISTS vector');
    const port = options.port === 0 ? await freePort() : options.port;
    const server = new PGLiteSocketServer({
      db,
      host: '127.0.0.1',
      port,
      maxConnections: options.maxConnections,
    });
    keepProtocolExchangesWhole(server);
    try {
      await server.start();
    } catch (error) {
      await db.close();
      throw new Error(
        `Could not serve the embedded database on 127.0.0.1:${port}: ${(error as Error).message}. ` +
          'Set PGLITE_PORT to a free port (or 0 to pick one).',
      );
    }
    const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
    return new EmbeddedPostgres(db, server, url, dataDir, options.maxConnections);
  }

  /** Stop accepting connections first, then close PGlite (flushes to disk). */
  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
  }
}

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  timestamp: number;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
  onData: (data: Uint8Array) => void;
}

interface QueryQueue {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: PGlite;
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

/**
 * Messages after which a connection has nothing half-sent: Sync ('S') ends an extended-protocol exchange
 * (Parse/Bind/Describe/Execute … Sync), a simple Query ('Q') is whole, as are a password ('p'),
 * CopyDone ('c'), CopyFail ('f') and Terminate ('X').
 */
const EXCHANGE_ENDS = new Set([0x53, 0x51, 0x70, 0x63, 0x66, 0x58]);
const PROTOCOL_3 = 196608;

function endsExchange(message: Uint8Array): boolean {
  if (message.length === 0) return true;
  // The startup message has no type byte: length, then the protocol version.
  if (message.length >= 8 && new DataView(message.buffer, message.byteOffset).getInt32(4) === PROTOCOL_3) {
    return true;
  }
  return EXCHANGE_ENDS.has(message[0]);
}

/**
 * pglite-socket (0.2.17) queues each protocol MESSAGE, and only keeps one connection's messages together
 * inside a transaction. With the extended protocol (every parameterised query of `pg`), two connections'
 * Parse/Bind messages can interleave in PGlite's single session and bind to each other's unnamed
 * statement ("bind message supplies 5 parameters, but prepared statement requires 4"). This keeps a
 * connection's messages together from its first message to its Sync, as it already does for transactions.
 */
function keepProtocolExchangesWhole(server: PGLiteSocketServer): void {
  const queue = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  if (!queue || typeof queue.processQueue !== 'function' || !Array.isArray(queue.queue)) {
    throw new Error('pglite-socket internals changed: re-check keepProtocolExchangesWhole before upgrading');
  }
  let exchangeOpen = false;
  const clearQueueForHandler = queue.clearQueueForHandler.bind(queue);
  // A connection that goes away mid-exchange must not hold the others back.
  queue.clearQueueForHandler = (handlerId: number) => {
    clearQueueForHandler(handlerId);
    if (queue.lastHandlerId === handlerId && exchangeOpen) {
      exchangeOpen = false;
      if (!queue.db.isInTransaction()) queue.lastHandlerId = null;
      void queue.processQueue();
    }
  };
  queue.processQueue = async function processQueue(this: QueryQueue): Promise<void> {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        let item: QueuedMessage | undefined;
        if ((exchangeOpen || this.db.isInTransaction()) && this.lastHandlerId !== null) {
          const index = this.queue.findIndex((queued) => queued.handlerId === this.lastHandlerId);
          if (index === -1) break; // wait for the rest of this connection's exchange
          item = this.queue.splice(index, 1)[0];
        } else {
          item = this.queue.shift();
        }
        if (!item) break;
        const current = item;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(current.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                current.onData(data);
              },
            }),
          );
        } catch (error) {
          exchangeOpen = false;
          this.lastHandlerId = null;
          current.reject(error);
          continue;
        }
        exchangeOpen = !endsExchange(current.message);
        this.lastHandlerId = current.handlerId;
        current.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  };
}
