import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { EmbeddingProvider } from '@lumina/rag';
import { DataSource } from 'typeorm';
import { appSchema } from '../app-data-source';
import { openDatabase } from '../database/database-connection';
import { DatabaseModule } from '../database/database.module';
import { EMBEDDING_STORAGE_MIGRATION } from '../database/pgvector';
import { assertEmbeddingStorage } from '../database/schema-check';
import { readJson } from './helpers/http';
import type { Json } from './helpers/http';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { startTestApp } from './helpers/test-app';
import { createScratchDatabase, TEST_BACKEND, testPostgresAdminUrl } from './helpers/test-backend';
import { startTestDatabase } from './helpers/test-database';
import type { TestDatabase } from './helpers/test-database';
import { testEnv } from './helpers/test-env';

async function embeddingColumn(dataSource: DataSource): Promise<string> {
  const [row] = await dataSource.query(
    `SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
     WHERE attrelid = 'chunks'::regclass AND attname = 'embedding'`,
  );
  return row.type;
}

async function hnswIndex(dataSource: DataSource): Promise<string | undefined> {
  const [row] = await dataSource.query(
    `SELECT indexdef FROM pg_indexes WHERE indexname = 'chunks_embedding_hnsw_idx'`,
  );
  return row?.indexdef;
}

async function appliedMigrations(dataSource: DataSource): Promise<string[]> {
  const rows: { name: string }[] = await dataSource.query(`SELECT name FROM migrations ORDER BY id`);
  return rows.map((row) => row.name);
}

async function tableCount(dataSource: DataSource): Promise<number> {
  const [row] = await dataSource.query(
    `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'`,
  );
  return row.n;
}

/** A 512-d unit vector with a little of everything, so half precision has something to round. */
function probeVector(): number[] {
  const raw = Array.from({ length: 512 }, (_, i) => Math.sin(i * 0.37) + 0.1 * Math.cos(i * 1.91));
  const norm = Math.hypot(...raw);
  return raw.map((v) => v / norm);
}

describe('EMBEDDING_STORAGE=halfvec: migrations', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await startTestDatabase(testEnv({ EMBEDDING_STORAGE: 'halfvec' }), { migrate: false });
  });

  afterAll(async () => {
    await db.close();
  });

  it('go up to halfvec(512) with halfvec_cosine_ops, down to vector(512) keeping the vectors, and up again', async () => {
    const applied = await db.dataSource.runMigrations({ transaction: 'each' });
    expect(applied.map((m) => m.name)).toContain(EMBEDDING_STORAGE_MIGRATION);
    expect(await embeddingColumn(db.dataSource)).toBe('halfvec(512)');
    expect(await hnswIndex(db.dataSource)).toMatch(/USING hnsw \(embedding halfvec_cosine_ops\)/);

    // A vector written the way IndexingService writes it (a ::vector literal, assigned to the column).
    const vector = probeVector();
    const [document] = await db.dataSource.query(
      `INSERT INTO documents (title, content_hash) VALUES ('Probe', 'probe') RETURNING id`,
    );
    await db.dataSource.query(
      `INSERT INTO chunks (document_id, ordinal, text, index_text, span_start, span_end, embedding)
       VALUES ($1, 0, 'probe text', 'probe text', 0, 10, $2::vector)`,
      [document.id, `[${vector.join(',')}]`],
    );
    const [{ stored }] = await db.dataSource.query(`SELECT embedding::text AS stored FROM chunks`);
    const halfValues: number[] = JSON.parse(stored);
    expect(halfValues).toHaveLength(512);
    const maxError = Math.max(...halfValues.map((v, i) => Math.abs(v - vector[i])));
    expect(maxError).toBeGreaterThan(0); // it really is rounded to half precision…
    expect(maxError).toBeLessThan(1e-3 * Math.max(...vector.map(Math.abs))); // …and only that

    // Down through the storage migration (whatever was added after it goes first).
    while ((await appliedMigrations(db.dataSource)).includes(EMBEDDING_STORAGE_MIGRATION)) {
      await db.dataSource.undoLastMigration({ transaction: 'each' });
    }
    expect(await embeddingColumn(db.dataSource)).toBe('vector(512)');
    expect(await hnswIndex(db.dataSource)).toMatch(/USING hnsw \(embedding vector_cosine_ops\)/);
    const [{ back }] = await db.dataSource.query(`SELECT embedding::text AS back FROM chunks`);
    expect(JSON.parse(back)).toEqual(halfValues);

    // All the way down, then up again.
    while ((await appliedMigrations(db.dataSource)).length > 0) {
      await db.dataSource.undoLastMigration({ transaction: 'each' });
    }
    expect(await tableCount(db.dataSource)).toBe(0);
    const again = await db.dataSource.runMigrations({ transaction: 'each' });
    expect(again).toHaveLength(applied.length);
    expect(await embeddingColumn(db.dataSource)).toBe('halfvec(512)');
    expect(await hnswIndex(db.dataSource)).toMatch(/halfvec_cosine_ops/);
  });
});

describe(`EMBEDDING_STORAGE boot check (${TEST_BACKEND})`, () => {
  /** One database opened twice: an on-disk PGlite directory, or a scratch PostgreSQL database. */
  let where: Record<string, string>;
  let cleanUp: () => Promise<void>;

  beforeAll(async () => {
    const adminUrl = testPostgresAdminUrl();
    if (adminUrl) {
      const scratch = await createScratchDatabase(adminUrl, 'storage');
      where = { DATABASE_URL: scratch.url };
      cleanUp = () => scratch.drop();
    } else {
      const dataDir = mkdtempSync(join(tmpdir(), 'lumina-halfvec-'));
      where = { PGLITE_DATA_DIR: dataDir };
      cleanUp = async () => rmSync(dataDir, { recursive: true, force: true });
    }
  });

  afterAll(async () => {
    await cleanUp?.();
  });

  it('refuses to start the database module on a halfvec database configured as vector, saying how to fix it', async () => {
    const halfvecEnv = testEnv({ ...where, EMBEDDING_STORAGE: 'halfvec' });
    const created = await startTestDatabase(halfvecEnv);
    await created.close();

    // The module the API and the worker boot with, over the same database, now configured as vector.
    const vectorEnv = testEnv(where);
    const connection = await openDatabase(vectorEnv);
    try {
      const boot = NestFactory.createApplicationContext(
        DatabaseModule.forRoot(connection, vectorEnv, appSchema(vectorEnv)),
        {
          abortOnError: false,
          logger: false,
        },
      );
      await expect(boot).rejects.toThrow(
        'The database stores chunk vectors as halfvec(512) but EMBEDDING_STORAGE=vector. ' +
          'Set EMBEDDING_STORAGE=halfvec, or convert the stored vectors (rewrites the chunks table and ' +
          'rebuilds its HNSW index): DROP INDEX IF EXISTS chunks_embedding_hnsw_idx; ALTER TABLE chunks ' +
          'ALTER COLUMN embedding TYPE vector(512) USING embedding::vector(512); CREATE INDEX ' +
          'chunks_embedding_hnsw_idx ON chunks USING hnsw (embedding vector_cosine_ops).',
      );
    } finally {
      await connection.close();
    }

    // The same configuration as the database: it boots.
    const matching = await openDatabase(halfvecEnv);
    try {
      const context = await NestFactory.createApplicationContext(
        DatabaseModule.forRoot(matching, halfvecEnv, appSchema(halfvecEnv)),
        {
          abortOnError: false,
          logger: false,
        },
      );
      expect(await embeddingColumn(context.get(DataSource))).toBe('halfvec(512)');
      await context.close();
    } finally {
      await matching.close();
    }
  });

  it('with the default (vector) changes nothing; names a pending migration; its conversion SQL works', async () => {
    const db = await startTestDatabase(testEnv());
    try {
      expect(await appliedMigrations(db.dataSource)).toContain(EMBEDDING_STORAGE_MIGRATION);
      expect(await embeddingColumn(db.dataSource)).toBe('vector(512)');
      expect(await hnswIndex(db.dataSource)).toMatch(/USING hnsw \(embedding vector_cosine_ops\)/);
      await expect(assertEmbeddingStorage(db.dataSource, 'vector')).resolves.toBeUndefined();

      await db.dataSource.query(`DELETE FROM migrations WHERE name = $1`, [EMBEDDING_STORAGE_MIGRATION]);
      await expect(assertEmbeddingStorage(db.dataSource, 'halfvec')).rejects.toThrow(
        'The database stores chunk vectors as vector(512) but EMBEDDING_STORAGE=halfvec. ' +
          'The migration that converts them has not run yet: run the migrations (npm run db:migrate).',
      );
      await db.dataSource.runMigrations({ transaction: 'each' });
      expect(await embeddingColumn(db.dataSource)).toBe('vector(512)'); // it ran with this env: vector

      // Follow the advice of the message for a vector database configured as halfvec.
      const error = await assertEmbeddingStorage(db.dataSource, 'halfvec').then(
        () => null,
        (e: Error) => e,
      );
      const statements = error!.message.split('HNSW index): ')[1].replace(/\.$/, '').split('; ');
      for (const statement of statements) await db.dataSource.query(statement);
      await expect(assertEmbeddingStorage(db.dataSource, 'halfvec')).resolves.toBeUndefined();
      expect(await hnswIndex(db.dataSource)).toMatch(/halfvec_cosine_ops/);
    } finally {
      await db.close();
    }
  });
});

describe('the app with EMBEDDING_STORAGE=halfvec', () => {
  it('migrates at boot, indexes through IndexingService and answers a dense search', async () => {
    const server = await startTestApp(testEnv({ EMBEDDING_STORAGE: 'halfvec' }));
    try {
      const dataSource = server.app.get(DataSource);
      expect(await embeddingColumn(dataSource)).toBe('halfvec(512)');
      // A deterministic stand-in for the model: the app's own path from here on.
      const embedder: EmbeddingProvider = {
        modelId: 'test-hash-512',
        dimension: 512,
        maxInputChars: 10_000,
        embed: async (texts) =>
          texts.map((text) => {
            const raw = Array.from({ length: 512 }, (_, i) => Math.sin((text.length + 1) * (i + 1) * 0.01));
            const norm = Math.hypot(...raw);
            return raw.map((v) => v / norm);
          }),
      };
      await seedDocuments(dataSource, embedder, RUNBOOK_CORPUS);
      const [{ n }] = await dataSource.query(
        `SELECT count(*)::int AS n FROM chunks WHERE embedding IS NOT NULL AND embedding_model = 'test-hash-512'`,
      );
      expect(n).toBeGreaterThan(0);

      const response = await fetch(`${server.baseUrl}/rag/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'promote the standby replica',
          settings: { ranker: 'dense', topK: 3 },
        }),
      });
      const body = await readJson(response);
      expect(response.status).toBe(200);
      expect(body.results).toHaveLength(3);
      expect(body.results[0].provenance).toEqual([expect.objectContaining({ branch: 'original:dense' })]);
      expect(body.results.map((r: Json) => r.provenance[0].score)).toEqual(
        [...body.results.map((r: Json) => r.provenance[0].score)].sort((a: number, b: number) => b - a),
      );
    } finally {
      await server.close();
    }
  });
});
