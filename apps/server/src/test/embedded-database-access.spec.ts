import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../common/net/free-port';
import { testEnv } from './helpers/test-env';
import { REPO_ROOT, buildServer, startWorker } from './fixtures/ingestion/worker-process';
import type { WorkerProcess } from './fixtures/ingestion/worker-process';

const ADMIN_KEY = 'embedded-access-admin-key-0123456789';
/** An unprivileged account present on every Linux (the "other local user" of the attack). */
const NOBODY = 65534;

interface Listeners {
  tcp: number[];
  unix: string[];
}

/** The socket inodes the process holds (its fds and its threads' share them). */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]);
    } catch {
      // closed between readdir and readlink
    }
  }
  return inodes;
}

/** Every TCP port and Unix socket path the process listens on, read from /proc. */
function listeners(pid: number): Listeners {
  const inodes = socketInodes(pid);
  const tcp: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is HEXIP:HEXPORT; state 0A is LISTEN; the inode is field 9.
      if (fields.length > 9 && fields[3] === '0A' && inodes.has(fields[9])) {
        tcp.push(parseInt(fields[1].split(':')[1], 16));
      }
    }
  }
  const unix: string[] = [];
  for (const line of readFileSync('/proc/net/unix', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    // Flags 00010000 is __SO_ACCEPTCON: a listening socket; the path is the last field when bound.
    if (fields.length >= 8 && fields[3] === '00010000' && inodes.has(fields[6])) unix.push(fields[7]);
  }
  return { tcp, unix };
}

/** Whether a Postgres client gets to run a query there (any user, any database, no password). */
async function postgresAnswers(config: { host: string; port: number }): Promise<boolean> {
  const client = new Client({
    ...config,
    user: 'anyone',
    database: 'anything',
    connectionTimeoutMillis: 5000,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A connection to a Unix socket from another OS user (a child process running as `nobody`). */
function connectAsNobody(path: string): string {
  const script =
    `const s = require('net').connect(${JSON.stringify(path)});` +
    `s.on('connect', () => { console.log('connected'); s.destroy(); });` +
    `s.on('error', (e) => console.log(e.code));`;
  const result = spawnSync(process.execPath, ['-e', script], { uid: NOBODY, gid: NOBODY, encoding: 'utf8' });
  return result.stdout.trim();
}

/**
 * The compiled server, started as a user starts it (embedded database, workers in process), keyless and in
 * keys mode: every TCP port and Unix socket its process listens on is tried as another local client would.
 * None gives database access: the one TCP port is the HTTP API, and the embedded database's socket sits
 * in a directory no other OS user may enter.
 */
describe.each([
  ['keyless (local mode)', {}],
  ['keys mode', { ADMIN_API_KEY: ADMIN_KEY }],
])(
  'the server process %s opens nothing that gives database access',
  (_mode, extra: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'lumina-db-access-'));
    let server: WorkerProcess | undefined;
    let port: number;

    beforeAll(async () => {
      const workerEntry = await buildServer(join(REPO_ROOT, 'tmp/ingestion-worker-build'));
      port = await freePort();
      server = startWorker(join(workerEntry, '..', 'main.js'), {
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(port),
        PGLITE_DATA_DIR: join(dir, 'pglite'),
        UPLOAD_DIR: join(dir, 'uploads'),
        EMBEDDINGS_PROVIDER: 'hash',
        REDIS_URL: testEnv().REDIS_URL,
        QUEUE_PREFIX: testEnv().QUEUE_PREFIX,
        WORKERS_IN_PROCESS: 'true',
        ...extra,
      });
      const deadline = Date.now() + 90_000;
      for (;;) {
        const status = await fetch(`http://127.0.0.1:${port}/health`).then(
          (response) => response.status,
          () => null,
        );
        if (status === 200) break;
        if (server.child.exitCode !== null) throw new Error(`the server exited:\n${server.output()}`);
        if (Date.now() > deadline) throw new Error(`the server did not start:\n${server.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }, 300_000);

    afterAll(async () => {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('listens on TCP only for the HTTP API, which speaks no Postgres', async () => {
      const { tcp } = listeners(server!.child.pid!);
      expect(tcp).toEqual([port]);
      for (const listening of tcp) {
        expect(await postgresAnswers({ host: '127.0.0.1', port: listening })).toBe(false);
      }
    });

    it("keeps the embedded database's Unix socket in a directory only the server's user may enter", async () => {
      const { unix } = listeners(server!.child.pid!);
      expect(unix).toHaveLength(1);
      const [socket] = unix;
      const socketDir = dirname(socket);
      const stat = statSync(socketDir);
      expect(stat.mode & 0o777).toBe(0o700);
      expect(stat.uid).toBe(process.getuid!());
      expect(statSync(join(dir, 'pglite')).mode & 0o777).toBe(0o700);
      // The server's own user reaches it (that is how the server's pool connects) …
      expect(await postgresAnswers({ host: socketDir, port: 5432 })).toBe(true);
      // … and another OS user cannot even open the socket. Only root may run a process as another user.
      if (process.getuid!() === 0) expect(connectAsNobody(socket)).toBe('EACCES');
    });
  },
);
