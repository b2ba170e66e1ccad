import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';

/**
 * A private `redis-server` for one test: its own loopback port and directory, never the shared Redis.
 * Persists with an append-only file fsynced on every write (how BullMQ's Redis must run in production),
 * so a killed and restarted server comes back with its jobs.
 */
export class RedisServerProcess {
  private child: ChildProcess | null = null;
  private output = '';

  constructor(
    readonly port: number,
    readonly dir: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Start (or start again, over the same directory) and wait until it answers PING. */
  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--protected-mode',
        'no',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    const deadline = Date.now() + 10_000;
    while (!(await this.answersPing())) {
      if (!this.running || Date.now() > deadline) {
        throw new Error(`redis-server on port ${this.port} did not start:\n${this.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** SIGKILL: a crash, nothing flushed beyond what the append-only file already holds. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  }

  /** FLUSHALL: Redis comes back empty (a lost data directory, a crash under appendfsync everysec). */
  async flushAll(): Promise<void> {
    const reply = await this.command('FLUSHALL');
    if (!reply.startsWith('+OK')) throw new Error(`FLUSHALL answered ${reply}`);
  }

  private command(line: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.port, '127.0.0.1');
      let reply = '';
      socket.setTimeout(5_000, () => {
        socket.destroy();
        reject(new Error(`${line}: no answer from redis-server on port ${this.port}`));
      });
      socket.on('error', reject);
      socket.on('connect', () => socket.write(`${line}\r\n`));
      socket.on('data', (chunk) => {
        reply += chunk.toString('utf8');
        if (reply.includes('\r\n')) {
          socket.destroy();
          resolve(reply);
        }
      });
    });
  }

  private answersPing(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = connect(this.port, '127.0.0.1');
      let reply = '';
      const done = (ok: boolean) => {
        socket.destroy();
        resolve(ok);
      };
      socket.setTimeout(500, () => done(false));
      socket.on('error', () => done(false));
      socket.on('connect', () => socket.write('PING\r\n'));
      socket.on('data', (chunk) => {
        reply += chunk.toString('utf8');
        if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
      });
    });
  }
}
