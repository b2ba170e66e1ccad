import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHUTDOWN_DEADLINE_MS } from '../bootstrap/process-lifecycle';
import { freePort } from '../common/net/free-port';
import { REPO_ROOT, buildServer, startWorker } from './fixtures/ingestion/worker-process';
import type { WorkerProcess } from './fixtures/ingestion/worker-process';
import type { Json } from './helpers/http';
import { readJson } from './helpers/http';
import { ScriptedOpenAiServer } from '@lumina/testing-llm';
import { postSse } from './helpers/sse-client';
import type { SseEvent } from './helpers/sse-client';
import { testEnv } from './helpers/test-env';

const DOCUMENT = {
  title: 'Failover runbook',
  text: 'To fail over, promote the standby replica with pg_ctl promote, then repoint the writers at it.',
};
/** The slow model: 400 pieces, 50 ms apart (20 s), far longer than the test lets it run. */
const PIECES = Array.from({ length: 400 }, (_, i) => `word${i} `);

/**
 * The compiled server (main.js) gets SIGTERM while a chat answer streams from a slow model: the client
 * must get an `error` event saying the server restarts, the answer so far must be stored (cancelled),
 * and the process must exit 0 well within the shutdown deadline.
 */
describe('SIGTERM during a chat stream (compiled server, scripted slow model)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lumina-sigterm-'));
  const queuePrefix = testEnv().QUEUE_PREFIX;
  let mainEntry: string;
  let port: number;
  let llm: ScriptedOpenAiServer;
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
      LLM_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'scripted-slow',
      LLM_API_KEY: 'test-key',
      LLM_MAX_RETRIES: '0',
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
    // The same incremental build as the other compiled-server tests: only what changed is compiled again.
    const workerEntry = await buildServer(join(REPO_ROOT, 'tmp/ingestion-worker-build'));
    mainEntry = join(workerEntry, '..', 'main.js');
    port = await freePort();
    llm = await ScriptedOpenAiServer.start();
    llm.on((request) =>
      request.path.endsWith('/chat/completions') && request.body.stream
        ? { stream: PIECES, streamDelayMs: 50 }
        : null,
    );
  }, 300_000);

  afterAll(async () => {
    await server?.kill();
    await llm?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ends the stream with an error event, stores the partial answer as cancelled, and exits 0 in time', async () => {
    let baseUrl = await start();
    const created = await fetch(`${baseUrl}/documents/text`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DOCUMENT),
    });
    expect(created.status).toBe(202);
    const { id } = await readJson(created);
    const indexedBy = Date.now() + 60_000;
    while ((await readJson(await fetch(`${baseUrl}/documents/${id}`))).status !== 'indexed') {
      expect(Date.now()).toBeLessThan(indexedBy);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    const child = server!.child;
    const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
    );
    let signalledAt = 0;
    let tokens = 0;
    const answer = await postSse(
      `${baseUrl}/chat`,
      { message: 'How do I fail over to the standby replica?', settings: { ranker: 'bm25' } },
      {
        onEvent: (event: SseEvent) => {
          if (event.event === 'token') tokens += 1;
          if (tokens === 5 && signalledAt === 0) {
            signalledAt = Date.now();
            child.kill('SIGTERM');
          }
        },
      },
    );
    const streamEndedAt = Date.now();
    expect(answer.status).toBe(200);
    expect(signalledAt).toBeGreaterThan(0);

    // The client was told, in the stream, why the answer stopped.
    const names = answer.events.map((event) => event.event);
    expect(names).not.toContain('done');
    const last = answer.events.at(-1)!;
    expect(last.event).toBe('error');
    expect(last.data).toMatchObject({
      code: 'server_restarting',
      message: expect.stringMatching(/restarting.*saved/),
      conversationId: expect.any(String),
      messageId: expect.any(String),
    });
    const streamed = answer.events
      .filter((event) => event.event === 'token')
      .map((event) => String(event.data.text))
      .join('');
    expect(streamed).toMatch(/^word0 word1 word2 word3 word4/);
    expect(streamed).not.toContain(PIECES.at(-1)!.trim()); // cut off, not streamed to the end
    expect(streamEndedAt - signalledAt).toBeLessThan(5_000);

    // The process stops accepting requests, then exits 0 well within the deadline.
    const during = await fetch(`${baseUrl}/health`).then(
      (response) => response.status,
      () => null,
    );
    expect([null, 503]).toContain(during);
    const exit = await exited;
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
    expect(exit.at - signalledAt).toBeLessThan(SHUTDOWN_DEADLINE_MS);
    // The model's stream was closed by the server, not left running.
    expect(llm.aborted.some((request) => request.path.endsWith('/chat/completions'))).toBe(true);

    // After a restart the partial answer is there: status cancelled, the text the client saw.
    baseUrl = await start();
    const conversation: Json = await readJson(
      await fetch(`${baseUrl}/conversations/${String(last.data.conversationId)}`),
    );
    const stored = conversation.messages.items.find((message: Json) => message.id === last.data.messageId);
    expect(stored).toMatchObject({ role: 'assistant', status: 'cancelled' });
    expect(stored.content).toMatch(/^word0 word1 word2 word3 word4/);
    expect(streamed.startsWith(stored.content.trim())).toBe(true);
  }, 300_000);
});
