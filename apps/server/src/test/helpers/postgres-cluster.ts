import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from '../../common/net/free-port';

const run = promisify(execFile);

/** The machine's PostgreSQL 15 programs (Debian's layout). */
export const PG_BIN = '/usr/lib/postgresql/15/bin';

/**
 * PostgreSQL refuses to run as root: as root, the programs run as the `postgres` user (runuser); as
 * anyone else, as that user.
 */
async function pg(program: string, args: string[]): Promise<string> {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(PG_BIN, program), ...args]]
    : [join(PG_BIN, program), args];
  try {
    const { stdout } = await run(file, argv, { timeout: 120_000 });
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`${program} ${args.join(' ')} failed: ${e.stderr || e.message}`);
  }
}

/**
 * A throwaway PostgreSQL 15 cluster in a temporary directory on a free loopback port: a primary made
 * with initdb, or a hot standby of one made with pg_basebackup (streaming replication, -R).
 */
export class PostgresCluster {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  url(database = 'postgres'): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** A temporary directory for the clusters, owned by the user the programs run as. */
  static async workspace(): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'lumina-pg-'));
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    return dir;
  }

  static async primary(workspace: string): Promise<PostgresCluster> {
    const dir = join(workspace, 'primary');
    await pg('initdb', ['-D', dir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    const cluster = new PostgresCluster(dir, await freePort());
    await cluster.start(workspace, ['-c', 'wal_level=replica', '-c', 'max_wal_senders=4']);
    return cluster;
  }

  /** A hot standby streaming from `primary`, started and accepting read-only connections. */
  static async standby(workspace: string, primary: PostgresCluster): Promise<PostgresCluster> {
    const dir = join(workspace, 'standby');
    await pg('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      dir,
      '-R',
      '-X',
      'stream',
      '--no-sync',
    ]);
    const cluster = new PostgresCluster(dir, await freePort());
    await cluster.start(workspace, ['-c', 'hot_standby=on']);
    return cluster;
  }

  private async start(workspace: string, settings: string[]): Promise<void> {
    const options = [
      '-p',
      String(this.port),
      '-k',
      workspace,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      ...settings,
    ].join(' ');
    await pg('pg_ctl', ['-D', this.dir, '-o', options, '-l', `${this.dir}.log`, '-w', '-t', '60', 'start']);
  }

  async query<T = Record<string, unknown>>(sql: string, database = 'postgres'): Promise<T[]> {
    const client = new Client({ connectionString: this.url(database) });
    await client.connect();
    try {
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end();
    }
  }

  async stop(): Promise<void> {
    await pg('pg_ctl', ['-D', this.dir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
  }

  static remove(workspace: string): void {
    rmSync(workspace, { recursive: true, force: true });
  }
}
