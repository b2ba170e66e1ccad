import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { readJson } from './helpers/http';
import { TEST_BACKEND } from './helpers/test-backend';

describe(`GET /health over HTTP (${TEST_BACKEND}, real Redis)`, () => {
  let server: TestApp;

  beforeAll(async () => {
    server = await startTestApp(testEnv());
  });

  afterAll(async () => {
    await server.close();
  });

  it('reports the database and Redis as up', async () => {
    const response = await fetch(`${server.baseUrl}/health`);
    expect(response.status).toBe(200);
    const body = await readJson(response);
    expect(body).toMatchObject({
      status: 'ok',
      database: { status: 'up', driver: TEST_BACKEND },
      redis: { status: 'up' },
      llm: { configured: false, model: null, search: { source: 'offline', model: null }, local: null },
      embedder: { model: 'use-lite-512', dimension: 512, reembedding: null, fallback: null },
      documentLanguages: expect.any(Object),
    });
  });

  it('answers liveness without I/O and readiness with the database and Redis', async () => {
    const live = await fetch(`${server.baseUrl}/health/live`);
    expect(live.status).toBe(200);
    expect(await readJson(live)).toEqual({ status: 'alive', uptimeSeconds: expect.any(Number) });
    const ready = await fetch(`${server.baseUrl}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await readJson(ready)).toMatchObject({
      status: 'ready',
      database: { status: 'up', driver: TEST_BACKEND },
      redis: { status: 'up' },
    });
  });

  it('ran the migrations at boot', async () => {
    const { DataSource } = await import('typeorm');
    const dataSource = server.app.get(DataSource);
    const rows: { name: string }[] = await dataSource.query(`SELECT name FROM migrations ORDER BY id`);
    expect(rows.map((row) => row.name)).toContain('InitialSchema1764500000000');
  });

  it('serves the OpenAPI document', async () => {
    const response = await fetch(`${server.baseUrl}/api/docs-json`);
    expect(response.status).toBe(200);
    const document = await readJson(response);
    expect(document.info.title).toBe('Lumina API');
    expect(Object.keys(document.paths)).toContain('/health');
  });

  it('answers an unknown route with a JSON 404', async () => {
    const response = await fetch(`${server.baseUrl}/no-such-route`);
    expect(response.status).toBe(404);
    expect((await readJson(response)).message).toMatch(/Cannot GET/);
  });
});

describe(`GET /health with the default embedder and no models fetched (${TEST_BACKEND})`, () => {
  let server: TestApp;
  let modelsDir: string;

  beforeAll(async () => {
    modelsDir = mkdtempSync(join(tmpdir(), 'lumina-no-models-'));
    server = await startTestApp(testEnv({ EMBEDDINGS_PROVIDER: 'auto', MODELS_DIR: modelsDir }));
  });

  afterAll(async () => {
    await server.close();
    rmSync(modelsDir, { recursive: true, force: true });
  });

  it('starts on USE-lite and says why, where it looked and how to mend it', async () => {
    const body = (await readJson(await fetch(`${server.baseUrl}/health`))) as {
      embedder: { model: string; fallback: string | null };
    };
    expect(body.embedder.model).toBe('use-lite-512');
    expect(body.embedder.fallback).toContain(join(modelsDir, 'all-minilm-l6-v2-int8'));
    expect(body.embedder.fallback).toMatch(/run npm run models:fetch, then restart/);
  });
});

describe('GET /health when Redis does not answer', () => {
  let server: TestApp;

  beforeAll(async () => {
    // Nothing listens on port 1 of loopback: the check must report Redis down, not hang.
    // Workers stay out of this process: a BullMQ worker cannot close while Redis is unreachable.
    server = await startTestApp(testEnv({ REDIS_URL: 'redis://127.0.0.1:1', WORKERS_IN_PROCESS: 'false' }));
  });

  afterAll(async () => {
    await server.close();
  });

  it('stays live, and answers not ready (503) at once, with Redis down', async () => {
    const live = await fetch(`${server.baseUrl}/health/live`);
    expect(live.status).toBe(200);
    expect((await readJson(live)).status).toBe('alive');
    const started = performance.now();
    const ready = await fetch(`${server.baseUrl}/health/ready`);
    expect(ready.status).toBe(503);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await readJson(ready)).toMatchObject({
      status: 'not-ready',
      database: { status: 'up' },
      redis: { status: 'down' },
    });
  });

  it('answers 503 with Redis down and the database still up', async () => {
    const response = await fetch(`${server.baseUrl}/health`);
    expect(response.status).toBe(503);
    const body = await readJson(response);
    expect(body.status).toBe('degraded');
    expect(body.database.status).toBe('up');
    expect(body.redis.status).toBe('down');
  });
});
