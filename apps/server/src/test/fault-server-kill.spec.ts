import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Json } from './helpers/http';
import { readJson } from './helpers/http';
import { freePort } from '../common/net/free-port';
import { testEnv } from './helpers/test-env';
import { REPO_ROOT, buildServer, startWorker } from './fixtures/ingestion/worker-process';
import type { WorkerProcess } from './fixtures/ingestion/worker-process';

const DOCUMENT = {
  title: 'Power loss',
  text: 'After a power loss the embedded database replays its write-ahead log and keeps every committed row.',
};

/**
 * The one-command server (compiled main.js, embedded database in PGLITE_DATA_DIR) killed with SIGKILL:
 * no shutdown hooks, no flush. What it had acknowledged — an indexed document and a conversation — is
 * there when a new process starts on the same folder.
 */
describe('the server process killed with SIGKILL over its embedded data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lumina-server-kill-'));
  const queuePrefix = testEnv().QUEUE_PREFIX;
  let mainEntry: string;
  let port: number;
  let server: WorkerProcess | undefined;

  const start = async (): Promise<string> => {
    server = startWorker(mainEntry, {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      PGLITE_DATA_DIR: join(dir, 'pglite'),
      UPLOAD_DIR: join(dir, 'uploads'),
      REDIS_URL: testEnv().REDIS_URL,
      QUEUE_PREFIX: queuePrefix,
      WORKERS_IN_PROCESS: 'true',
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 90_000;
    for (;;) {
      const answered = await fetch(`${baseUrl}/health`).then(
        (response) => response.status,
        () => null,
      );
      if (answered === 200) return baseUrl;
      if (server.child.exitCode !== null) throw new Error(`the server exited:\n${server.output()}`);
      if (Date.now() > deadline) throw new Error(`the server did not start:\n${server.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  beforeAll(async () => {
    // The same incremental build as the worker crash test: only what changed is compiled again.
    const workerEntry = await buildServer(join(REPO_ROOT, 'tmp/ingestion-worker-build'));
    mainEntry = join(workerEntry, '..', 'main.js');
    port = await freePort();
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the indexed document and the conversation it had acknowledged', async () => {
    let baseUrl = await start();
    const created = await fetch(`${baseUrl}/documents/text`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DOCUMENT),
    });
    expect(created.status).toBe(202);
    const { id } = await readJson(created);
    let document: Json;
    const deadline = Date.now() + 60_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 200));
      document = await readJson(await fetch(`${baseUrl}/documents/${id}`));
      expect(Date.now()).toBeLessThan(deadline);
    } while (document.status !== 'indexed');
    const chat = await fetch(`${baseUrl}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'What happens after a power loss?' }),
    });
    expect(chat.status).toBe(200);
    expect(await chat.text()).toMatch(/event: done/);

    await server!.kill();
    expect(server!.child.signalCode).toBe('SIGKILL');

    baseUrl = await start();
    const after = await readJson(await fetch(`${baseUrl}/documents/${id}`));
    expect(after).toMatchObject({
      title: DOCUMENT.title,
      status: 'indexed',
      chunkCount: document.chunkCount,
    });
    const conversations = await readJson(await fetch(`${baseUrl}/conversations`));
    expect(conversations.total).toBe(1);
    expect(conversations.items[0]).toMatchObject({ messageCount: 2 });
    const search = await readJson(
      await fetch(`${baseUrl}/rag/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'write-ahead log after a power loss', settings: { ranker: 'bm25' } }),
      }),
    );
    expect(search.results[0]).toMatchObject({ documentId: id });
  }, 240_000);
});
