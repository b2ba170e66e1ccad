import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgresOptions {
  /** Directory holding the database files; created if missing. Use 'memory://' for a throwaway database. */
  dataDir: string;
  maxConnections: number;
}

/** The extensions every embedded database loads: the migrations create both (pg_trgm for conversation search). */
export const PGLITE_EXTENSIONS = { vector, pg_trgm };

/** The name libpq and `pg` give the socket of a server on port 5432 inside a socket directory. */
const SOCKET_PORT = 5432;

/**
 * PGlite (PostgreSQL compiled to WebAssembly) with pgvector, served over the Postgres wire protocol so
 * TypeORM and `pg` talk to it as to any PostgreSQL. PGlite accepts any user without a password, so the
 * socket is a Unix socket inside a fresh directory only the server's OS user may enter (0700): no TCP
 * listener, and no other local user can connect. PGlite runs one session on one thread: every connection
 * shares it, so the pool must not exceed maxConnections and the socket server is stopped before PGlite
 * is closed.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    /** The private directory holding the socket; removed on stop. */
    readonly socketDir: string,
    readonly url: string,
    readonly dataDir: string,
    readonly maxConnections: number,
  ) {}

  static async start(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
    const inMemory = options.dataDir.startsWith('memory://');
    const dataDir = inMemory ? options.dataDir : resolve(options.dataDir);
    if (!inMemory) {
      // Like PostgreSQL's own data directory: the database's files are the server's alone.
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      chmodSync(dataDir, 0o700);
    }
    const db = await PGlite.create({ dataDir, extensions: PGLITE_EXTENSIONS });
    await db.exec('CREATE EXTENSION IF NOT EXISTS vector');
    // mkdtemp creates the directory 0700 with a name nobody could prepare in advance; chmod again in
    // case the platform's mkdtemp is laxer. A short path under the temp folder keeps the socket's path
    // within the 107 bytes a Unix socket address allows, however deep PGLITE_DATA_DIR is.
    const socketDir = mkdtempSync(join(tmpdir(), 'lumina-db-'));
    chmodSync(socketDir, 0o700);
    const server = new PGLiteSocketServer({
      db,
      path: join(socketDir, `.s.PGSQL.${SOCKET_PORT}`),
      maxConnections: options.maxConnections,
    });
    keepProtocolExchangesWhole(server);
    try {
      await server.start();
    } catch (error) {
      await db.close();
      rmSync(socketDir, { recursive: true, force: true });
      throw new Error(
        `Could not serve the embedded database on a socket in ${socketDir}: ${(error as Error).message}.`,
      );
    }
    // `pg` takes a host that starts with "/" as the directory of a Unix socket named .s.PGSQL.<port>.
    const url = `postgres://postgres@${encodeURIComponent(socketDir)}:${SOCKET_PORT}/postgres`;
    return new EmbeddedPostgres(db, server, socketDir, url, dataDir, options.maxConnections);
  }

  /** Stop accepting connections first, then close PGlite (flushes to disk), then remove the socket. */
  async stop(): Promise<void> {
    try {
      await this.server.stop();
      await this.db.close();
    } finally {
      rmSync(this.socketDir, { recursive: true, force: true });
    }
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
