import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pageOf, syncRunSchema } from '@lumina/shared';
import type { SyncRun } from '@lumina/shared';
import { DataSource } from 'typeorm';
import type { Env } from '../config/env.schema';
import type { Json } from './helpers/http';
import { sleep } from './fixtures/ingestion/ingestion-client';
import { REPO_ROOT, buildServer, crashTestWorkerEnv, startWorker } from './fixtures/ingestion/worker-process';
import type { WorkerProcess } from './fixtures/ingestion/worker-process';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

const FILES = 40;

function page(i: number): string {
  return Array.from(
    { length: 6 },
    (_, line) => `Shelf ${i} line ${line}: the ledger of aisle ${i * 7 + line} lists crate ${i * 13 + line}.`,
  ).join('\n');
}

/**
 * The API runs without workers; a separate worker process syncs a folder source and is killed with
 * SIGKILL half-way. A second worker takes the stalled sync over: every file ends up one document, indexed
 * once, and the cut-short run is reported `interrupted`.
 */
describe('a worker process killed mid-sync', () => {
  const root = mkdtempSync(join(tmpdir(), 'lumina-source-crash-'));
  const folder = join(root, 'shelves');
  const chunking = { CHUNK_MAX_CHARS: '200', CHUNK_OVERLAP_CHARS: '0', EMBEDDINGS_BATCH_SIZE: '2' };
  const sourceEnv = { SOURCE_FOLDER_ROOTS: root, SOURCE_CACHE_DIR: join(root, '.cache') };
  let env: Env;
  let server: TestApp;
  let dataSource: DataSource;
  let workerEntry: string;
  const workers: WorkerProcess[] = [];

  const spawnWorker = (): WorkerProcess => {
    const worker = startWorker(
      workerEntry,
      crashTestWorkerEnv(server, env, join(root, '.uploads'), {
        SOURCE_SYNC_CONCURRENCY: '1',
        ...sourceEnv,
        ...chunking,
      }),
    );
    workers.push(worker);
    return worker;
  };
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const runs = async (sourceId: string): Promise<SyncRun[]> =>
    pageOf(syncRunSchema).parse((await call('GET', `/sources/${sourceId}/runs`)).body).items;

  beforeAll(async () => {
    workerEntry = await buildServer(join(REPO_ROOT, 'tmp/source-worker-build'));
    env = testEnv({
      ...chunking,
      ...sourceEnv,
      UPLOAD_DIR: join(root, '.uploads'),
      WORKERS_IN_PROCESS: 'false',
      PGLITE_MAX_CONNECTIONS: '16',
      DATABASE_POOL_SIZE: '4',
    });
    server = await startTestApp(env);
    dataSource = server.app.get(DataSource);
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < FILES; i++)
      writeFileSync(join(folder, `shelf-${i}.md`), `# Shelf ${i}\n\n${page(i)}\n`);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('reruns the killed sync in a new worker: every file one document, indexed once, nothing missing', async () => {
    const created = await call('POST', '/sources', {
      name: 'Shelves',
      config: { kind: 'folder', path: folder },
    });
    expect(created.status).toBe(201);
    const sourceId: string = created.body.id;
    const first = spawnWorker();
    expect((await call('POST', `/sources/${sourceId}/sync`)).status).toBe(202);

    // Kill the worker once the sync has taken some files in, but not all.
    let progress = 0;
    for (let i = 0; i < 1200; i++) {
      const [{ documents }] = await dataSource.query(
        `SELECT count(*) FILTER (WHERE status = 'indexed')::int AS documents FROM documents WHERE source_id = $1`,
        [sourceId],
      );
      progress = documents;
      if (progress >= 3) break;
      await sleep(25);
    }
    expect({
      progress: progress >= 3 && progress < FILES,
      output: progress >= 3 ? '' : first.output(),
    }).toEqual({
      progress: true,
      output: '',
    });
    await first.kill();
    expect(first.child.signalCode).toBe('SIGKILL');
    expect((await runs(sourceId))[0]!.status).toBe('running');

    const second = spawnWorker();
    const deadline = Date.now() + 150_000;
    let reports: SyncRun[] = [];
    while (Date.now() < deadline) {
      reports = await runs(sourceId);
      if (reports.some((run) => run.status === 'succeeded')) break;
      await sleep(200);
    }
    expect({ statuses: reports.map((run) => run.status), output: second.output() }).toEqual({
      statuses: ['succeeded', 'interrupted'],
      output: expect.any(String),
    });

    // Every file once, indexed, one set of chunks each, all with vectors; the BM25 statistics agree.
    const documents: { path: string; status: string; n: number }[] = await dataSource.query(
      `SELECT metadata->'source'->>'path' AS path, status, count(*)::int AS n FROM documents
       WHERE source_id = $1 GROUP BY 1, 2 ORDER BY 1`,
      [sourceId],
    );
    expect(documents).toHaveLength(FILES);
    expect(documents.every((document) => document.status === 'indexed' && document.n === 1)).toBe(true);
    expect(
      await dataSource.query(
        `SELECT document_id, ordinal FROM chunks GROUP BY document_id, ordinal HAVING count(*) > 1`,
      ),
    ).toEqual([]);
    const [{ missing }] = await dataSource.query(
      `SELECT count(*)::int AS missing FROM chunks WHERE embedding IS NULL`,
    );
    expect(missing).toBe(0);
    const [bm25] = await dataSource.query(
      `SELECT (SELECT chunk_count FROM bm25_corpus)::int AS kept, (SELECT count(*) FROM chunks)::int AS actual`,
    );
    expect(bm25.kept).toBe(bm25.actual);
    const [items] = await dataSource.query(
      `SELECT count(*)::int AS n, count(DISTINCT document_id)::int AS documents FROM source_items WHERE source_id = $1`,
      [sourceId],
    );
    expect(items).toEqual({ n: FILES, documents: FILES });
    // The rerun accounts for every file: what the killed run had stored is unchanged (or finished), the
    // rest is added; nothing failed.
    const [rerun] = reports;
    expect(rerun!.added + rerun!.updated + rerun!.unchanged).toBe(FILES);
    expect(rerun!.added).toBeLessThan(FILES);
    expect(rerun!.failed).toBe(0);
  }, 300_000);
});
