import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import {
  createHttpApp,
  flags,
  generateApiKey,
  loadEnv,
  openDatabase,
  parseFlags,
  progressReporter,
  UsageError,
} from '@lumina/server-core';
import { DataSource } from 'typeorm';
import { DEADLOCKS_SQL, INGEST_PROGRESS_AFTER_WARM_UP_SQL } from './sql/ingest-bench.sql';
import { BM25_STATISTICS_EXACT_SQL } from './sql/writers-bench.sql';
import { adminQuery } from './sql/admin-query';
import { createDatabaseSql, dropDatabaseSql } from './sql/scratch-database.sql';
import { sampleCorpus, startWorkerProcess, stopProcess } from './server-processes';

const ADMIN_KEY = generateApiKey().key;
const AUTH = { 'x-api-key': ADMIN_KEY };

const USAGE = `usage: npm run bench:writers -- --dataset <beir-dir> [--limit 600] [--workers 1,2,4]
                         [--concurrency 4]

Concurrent writers on PostgreSQL (DATABASE_URL, a server where the user may CREATE DATABASE): for each
worker count N, a fresh database, the API in this process (WORKERS_IN_PROCESS=false) and N worker
processes (worker.js) on one Redis; the first --limit documents of <beir-dir>/corpus.jsonl are uploaded
at once and timed until every one is indexed. The embedder is EMBEDDINGS_PROVIDER=hash (deterministic,
near-instant), so what is measured is parsing, chunking and writing — the database. Afterwards the BM25
statistics are checked against a recount from the chunks. Prints documents/s per N and the ratios.`;

interface Pass {
  workers: number;
  seconds: number;
  documents: number;
  chunks: number;
  failed: number;
  deadlocks: number;
  statsExact: boolean;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseFlags(
    argv,
    flags({
      string: 'dataset',
      boolean: 'help',
      defaults: { limit: '600', workers: '1,2,4', concurrency: '4' },
    }),
  );
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.dataset) throw new UsageError('--dataset is required');
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit must be a positive integer`);
  const counts = values.workers.split(',').map((v) => Number(v.trim()));
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 16))
    throw new UsageError('--workers must list integers from 1 to 16, e.g. 1,2,4');
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32)
    throw new UsageError('--concurrency must be an integer from 1 to 32');
  const base = loadEnv();
  if (!base.DATABASE_URL) throw new UsageError('DATABASE_URL must point at a PostgreSQL with pgvector');

  const work = mkdtempSync(join(tmpdir(), 'lumina-bench-writers-'));
  const corpusFile = join(work, 'corpus.jsonl');
  const lines = await sampleCorpus(values.dataset, limit, corpusFile);

  const passes: Pass[] = [];
  try {
    for (const workers of counts) {
      passes.push(await runPass(base.DATABASE_URL, work, corpusFile, lines.length, workers, concurrency));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const one = passes.find((p) => p.workers === 1) ?? passes[0];
  const rate = (p: Pass) => p.documents / p.seconds;
  const out = [
    `bench:writers — ${lines.length} documents from ${values.dataset}, EMBEDDINGS_PROVIDER=hash, ` +
      `INGESTION_CONCURRENCY=${concurrency} per worker process, PostgreSQL (DATABASE_URL)`,
    `${'workers'.padEnd(9)}${'seconds'.padStart(9)}${'docs/s'.padStart(9)}${'chunks/s'.padStart(10)}` +
      `${'× 1 worker'.padStart(12)}${'failed'.padStart(8)}${'deadlocks'.padStart(11)}  BM25 statistics`,
    ...passes.map(
      (p) =>
        `${String(p.workers).padEnd(9)}${p.seconds.toFixed(1).padStart(9)}${rate(p).toFixed(1).padStart(9)}` +
        `${(p.chunks / p.seconds).toFixed(1).padStart(10)}${(rate(p) / rate(one)).toFixed(2).padStart(12)}` +
        `${String(p.failed).padStart(8)}${String(p.deadlocks).padStart(11)}  ${p.statsExact ? 'exact' : 'WRONG'}`,
    ),
  ];
  console.log(out.join('\n'));
  if (passes.some((p) => !p.statsExact || p.failed > 0 || p.deadlocks > 0)) process.exitCode = 1;
}

async function runPass(
  adminUrl: string,
  work: string,
  corpusFile: string,
  expected: number,
  workers: number,
  concurrency: number,
): Promise<Pass> {
  const name = `lumina_writers_${workers}_${process.pid}`;
  await adminQuery(adminUrl, dropDatabaseSql(name));
  await adminQuery(adminUrl, createDatabaseSql(name));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const env = loadEnv({
    DATABASE_URL: url.toString(),
    DATABASE_POOL_SIZE: String(Math.max(4, concurrency + 1)),
    UPLOAD_DIR: join(work, `uploads-${workers}`),
    WORKERS_IN_PROCESS: 'false',
    INGESTION_CONCURRENCY: String(concurrency),
    EMBEDDINGS_PROVIDER: 'hash',
    QUEUE_PREFIX: `bench-writers-${process.pid}-${workers}`,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ADMIN_API_KEY: ADMIN_KEY,
  });
  const connection = await openDatabase(env);
  let app: INestApplication | undefined;
  const children: ChildProcess[] = [];
  try {
    app = await createHttpApp(env, connection);
    await app.listen(0, '127.0.0.1');
    const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const dataSource = app.get(DataSource);
    for (let i = 0; i < workers; i++) children.push(startWorkerProcess(env, {}, 'a worker process'));
    await warmUp(baseUrl, workers);

    const report = progressReporter(`${workers} worker${workers > 1 ? 's' : ''}`);
    const started = performance.now();
    const form = new FormData();
    form.append('files', await openAsBlob(corpusFile, { type: 'application/x-ndjson' }), 'corpus.jsonl');
    const response = await fetch(`${baseUrl}/documents`, { method: 'POST', body: form, headers: AUTH });
    if (response.status !== 202)
      throw new Error(`upload answered ${response.status}: ${await response.text()}`);
    for (;;) {
      const [row]: { indexed: number; failed: number; chunks: number }[] = await dataSource.query(
        INGEST_PROGRESS_AFTER_WARM_UP_SQL,
      );
      report(row.indexed + row.failed, expected);
      if (row.indexed + row.failed >= expected) {
        const seconds = (performance.now() - started) / 1000;
        return {
          workers,
          seconds,
          documents: row.indexed,
          chunks: row.chunks,
          failed: row.failed,
          deadlocks: await deadlocks(dataSource),
          statsExact: await statisticsExact(dataSource),
        };
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await Promise.all(children.map(stopProcess));
    await app?.close();
    await connection.close();
    await adminQuery(adminUrl, dropDatabaseSql(name));
  }
}

/** Deadlocks PostgreSQL detected in this database (each one a failed transaction, retried by the job). */
async function deadlocks(dataSource: DataSource): Promise<number> {
  const [row]: { n: number }[] = await dataSource.query(DEADLOCKS_SQL);
  return row.n;
}

/** The statistics the triggers kept, against a recount from the chunks' tsvectors. */
async function statisticsExact(dataSource: DataSource): Promise<boolean> {
  const [row]: { ok: boolean }[] = await dataSource.query(BM25_STATISTICS_EXACT_SQL);
  return row.ok;
}

async function warmUp(baseUrl: string, workers: number): Promise<void> {
  // One small document per worker process, so every process has connected before the clock starts.
  const ids: string[] = [];
  for (let i = 0; i < workers * 2; i++) {
    const response = await fetch(`${baseUrl}/documents/text`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...AUTH },
      body: JSON.stringify({ title: 'Warm-up', text: `Warm-up sentence number ${i} for the writers.` }),
    });
    ids.push(((await response.json()) as { id: string }).id);
  }
  for (let i = 0; i < 600; i++) {
    const states = await Promise.all(
      ids.map(
        async (id) =>
          (
            (await (await fetch(`${baseUrl}/documents/${id}`, { headers: AUTH })).json()) as {
              status: string;
            }
          ).status,
      ),
    );
    if (states.includes('failed')) throw new Error('a warm-up document failed');
    if (states.every((s) => s === 'indexed')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the workers did not index the warm-up documents within a minute');
}

main(process.argv.slice(2)).then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
