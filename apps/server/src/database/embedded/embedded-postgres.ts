import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

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
    const db = await PGlite.create({ dataDir, extensions: { vector } });
    await db.exec('CREATE EXTENSION IF NOT EXISTS vector');
    const port = options.port === 0 ? await findFreePort() : options.port;
    const server = new PGLiteSocketServer({
      db,
      host: '127.0.0.1',
      port,
      maxConnections: options.maxConnections,
    });
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

async function findFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}
