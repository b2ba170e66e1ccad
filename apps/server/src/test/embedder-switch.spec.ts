import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { appSchema } from '../app-data-source';
import { openDatabase } from '../database/database-connection';
import { DatabaseModule } from '../database/database.module';
import type { Env } from '../config/env.schema';
import { MINILM_L6_V2_INT8 } from '../providers/local-models/catalogue';
import { getJson, indexTexts, postJson, sleep, waitForStatus } from './fixtures/ingestion/ingestion-client';
import type { Json } from './helpers/http';
import { withRealModel } from './helpers/real-model';
import { RUNBOOK_CORPUS } from './helpers/seed-documents';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { createScratchDatabase, testPostgresAdminUrl } from './helpers/test-backend';
import type { ScratchDatabase } from './helpers/test-backend';
import { testEnv } from './helpers/test-env';

const { describe: describeWithMiniLm } = withRealModel(MINILM_L6_V2_INT8);

/** What the chunks' vectors are: the column's width, and how many chunks hold a vector of which model. */
async function vectors(server: TestApp): Promise<{ width: number; byModel: Record<string, number> }> {
  const dataSource = server.app.get(DataSource);
  const [{ width }]: { width: number }[] = await dataSource.query(
    `SELECT atttypmod AS width FROM pg_attribute WHERE attrelid = 'chunks'::regclass AND attname = 'embedding'`,
  );
  const rows: { model: string | null; count: number }[] = await dataSource.query(
    `SELECT CASE WHEN embedding IS NULL THEN NULL ELSE embedding_model END AS model, count(*)::int AS count
     FROM chunks GROUP BY 1`,
  );
  return { width, byModel: Object.fromEntries(rows.map((row) => [row.model ?? 'none', row.count])) };
}

async function cachedVectors(server: TestApp, model: string): Promise<number> {
  const [{ count }]: { count: number }[] = await server.app
    .get(DataSource)
    .query(`SELECT count(*)::int AS count FROM embedding_cache WHERE model = $1`, [model]);
  return count;
}

/** Until the re-embed job has given every chunk a vector of `model` and /health no longer shows it. */
async function reembedded(server: TestApp, model: string, chunks: number): Promise<Json> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const health = await getJson(`${server.baseUrl}/health`);
    const { byModel } = await vectors(server);
    if (byModel[model] === chunks && health.body.embedder.reembedding === null) return health.body;
    if (Date.now() > deadline) {
      throw new Error(
        `not re-embedded with ${model}: ${JSON.stringify({ byModel, health: health.body.embedder })}`,
      );
    }
    await sleep(200);
  }
}

/**
 * The embedder is chosen by configuration; the chunks' vectors are stored. A start with another embedder
 * (same width or not) drops the other model's vectors, records the switch and re-embeds in the
 * background, with its progress on /health, while keyword search goes on; switching back to a model used
 * before takes its vectors from the embedding cache. A process that does not run the migrations (a
 * separate worker) refuses to start with another embedder than the database's.
 */
describeWithMiniLm('a start with another embedder', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lumina-embedder-switch-'));
  const uploadDir = mkdtempSync(join(tmpdir(), 'lumina-embedder-switch-uploads-'));
  let scratch: ScratchDatabase | null = null;
  let server: TestApp | undefined;
  let database: Record<string, string>;

  const envFor = (provider: string, extra: Record<string, string> = {}): Env =>
    testEnv({
      ...database,
      UPLOAD_DIR: uploadDir,
      WORKERS_IN_PROCESS: 'true',
      EMBEDDINGS_PROVIDER: provider,
      ...extra,
    });
  const restart = async (provider: string): Promise<TestApp> => {
    await server?.close();
    server = undefined;
    server = await startTestApp(envFor(provider));
    return server;
  };
  const search = async (ranker: 'bm25' | 'dense', query: string): Promise<string[]> => {
    const { status, body } = await postJson(`${server!.baseUrl}/rag/search`, { query, settings: { ranker } });
    expect(status).toBe(200);
    return body.results.map((result: Json) => result.documentTitle);
  };

  beforeAll(async () => {
    const admin = testPostgresAdminUrl();
    scratch = admin ? await createScratchDatabase(admin, 'embedder') : null;
    database = scratch ? { DATABASE_URL: scratch.url } : { PGLITE_DATA_DIR: dataDir };
  });

  afterAll(async () => {
    await server?.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('re-embeds after a change of model and of width, in the background, and back from the cache', async () => {
    server = await restart('hash');
    await indexTexts(server.baseUrl, RUNBOOK_CORPUS);
    const before = await vectors(server);
    const chunks = before.byModel['hash-512'] ?? 0;
    expect(chunks).toBeGreaterThan(4);
    expect(before).toEqual({ width: 512, byModel: { 'hash-512': chunks } });
    const keywords = await search('bm25', 'how do I promote the standby replica');
    expect(keywords[0]).toBe('Database runbook');

    // Same width, another model: its vectors can't be compared with the new model's, so they go.
    server = await restart('local');
    const health = await reembedded(server, 'use-lite-512', chunks);
    expect(health.embedder).toEqual({
      model: 'use-lite-512',
      dimension: 512,
      reembedding: null,
      fallback: null,
    });
    expect(await vectors(server)).toEqual({ width: 512, byModel: { 'use-lite-512': chunks } });
    expect(await search('bm25', 'how do I promote the standby replica')).toEqual(keywords);
    expect(await search('dense', 'promote the standby replica')).toContain('Database runbook');

    // Another width: the column is made for the new model, and filled in the background.
    server = await restart('minilm');
    expect((await vectors(server)).width).toBe(384);
    await reembedded(server, MINILM_L6_V2_INT8.id, chunks);
    expect(await vectors(server)).toEqual({ width: 384, byModel: { [MINILM_L6_V2_INT8.id]: chunks } });
    expect((await search('dense', 'promote the standby replica'))[0]).toBe('Database runbook');
    // A new document while the embedder is MiniLM gets its vector at once, as always.
    const added = await postJson(`${server.baseUrl}/documents/text`, {
      title: 'Paging policy',
      text: 'The on-call engineer is paged when the error budget burns faster than two percent an hour.',
    });
    expect((await waitForStatus(server.baseUrl, added.body.id)).status).toBe('indexed');
    const withAdded = (await vectors(server)).byModel[MINILM_L6_V2_INT8.id] ?? 0;
    expect(withAdded).toBeGreaterThan(chunks);

    // Back to the first model: its vectors of the old chunks come from the cache, nothing is computed
    // for them (only the chunk written meanwhile is new to it).
    const cachedBefore = await cachedVectors(server, 'hash-512');
    server = await restart('hash');
    await reembedded(server, 'hash-512', withAdded);
    expect((await vectors(server)).width).toBe(512);
    expect(await cachedVectors(server, 'hash-512')).toBe(cachedBefore + (withAdded - chunks));
    expect(await search('bm25', 'how do I promote the standby replica')).toEqual(keywords);
  }, 300_000);

  it('refuses to start a process that does not run the migrations with another embedder', async () => {
    await server?.close();
    server = undefined;
    // The module the API and a separate worker boot with, over the same database.
    const boot = async (provider: string): Promise<void> => {
      const env = envFor(provider, { DATABASE_MIGRATIONS_RUN: 'false' });
      const connection = await openDatabase(env);
      try {
        const context = await NestFactory.createApplicationContext(
          DatabaseModule.forRoot(connection, env, appSchema(env)),
          { abortOnError: false, logger: false },
        );
        await context.close();
      } finally {
        await connection.close();
      }
    };
    await expect(boot('local')).rejects.toThrow(
      "The database's chunk vectors are hash-512's but this process embeds with use-lite-512.",
    );
    await expect(boot('minilm')).rejects.toThrow(
      'The database stores 512-dimensional chunk vectors but the configured embedder returns 384.',
    );
    // The database's own embedder starts as before.
    await expect(boot('hash')).resolves.toBeUndefined();
  }, 120_000);
});
