import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getQueueToken } from '@nestjs/bullmq';
import type { INestApplication } from '@nestjs/common';
import { chunkDocument } from '@lumina/rag';
import type { EmbeddingProvider } from '@lumina/rag';
import {
  createEmbedder,
  createHttpApp,
  flags,
  generateApiKey,
  loadEnv,
  openDatabase,
  parseFlags,
  progressReporter,
  QueueName,
  UsageError,
} from '@lumina/server-core';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import {
  CACHED_VECTORS_SQL,
  CHUNK_INDEX_TEXTS_SQL,
  DOCUMENT_IDS_SQL,
  INGEST_PROGRESS_SQL,
} from './sql/ingest-bench.sql';
import { sampleCorpus, startWorkerProcess, stopProcess } from './server-processes';

/** The benchmark's own admin key: uploads and deletes are admin work. */
const ADMIN_KEY = generateApiKey().key;
const AUTH = { 'x-api-key': ADMIN_KEY };

const USAGE = `usage: npm run bench:ingest -- --dataset <beir-dir> [--limit N] [--concurrency C]

Ingests the first N documents (default 200) of <beir-dir>/corpus.jsonl end to end — HTTP upload, the
BullMQ ingestion queue, parsing, chunking, embedding, writing — into a fresh embedded database under a
temporary folder, with the workers in the process. Then embeds the same chunks with the bare embedder
(no queue, no database, no cache) and prints the ratio of the two throughputs. Finally ingests the same
corpus again and prints how many embeddings had to be computed. --concurrency sets INGESTION_CONCURRENCY
(default: the server's default): jobs side by side share embedding calls.`;

interface PassResult {
  seconds: number;
  documents: number;
  chunks: number;
  failed: number;
  computed: number;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseFlags(
    argv,
    flags({
      string: 'dataset concurrency',
      boolean: 'help',
      defaults: { limit: '200', workers: 'in-process' },
    }),
  );
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.dataset) throw new UsageError('--dataset is required');
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new UsageError(`--limit must be a positive integer, got "${values.limit}"`);
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32)) {
    throw new UsageError(`--concurrency must be an integer from 1 to 32, got "${values.concurrency}"`);
  }
  const workers = values.workers;
  if (workers !== 'process' && workers !== 'in-process') {
    throw new UsageError(`--workers must be process or in-process, got "${values.workers}"`);
  }

  const work = mkdtempSync(join(tmpdir(), 'lumina-bench-ingest-'));
  const corpusFile = join(work, 'corpus.jsonl');
  const lines = await sampleCorpus(values.dataset, limit, corpusFile);

  const env = loadEnv({
    DATABASE_URL: '', // always a fresh embedded database
    PGLITE_DATA_DIR: join(work, 'pglite'),
    UPLOAD_DIR: join(work, 'uploads'),
    WORKERS_IN_PROCESS: workers === 'in-process' ? 'true' : 'false',
    INGESTION_CONCURRENCY: concurrency === undefined ? '' : String(concurrency),
    // The API's pool and a worker process's pool both connect to the embedded database.
    PGLITE_MAX_CONNECTIONS: '16',
    DATABASE_POOL_SIZE: '4',
    QUEUE_PREFIX: `bench-ingest-${process.pid}`,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ADMIN_API_KEY: ADMIN_KEY,
  });
  // Load the bare embedder's model first: with it, the shared model runtime is initialised before the app
  // loads its own copy (two first loads racing can fail inside the model library).
  const bare = createEmbedder(env);
  await bare.embed(['Lumina ingestion benchmark warm-up.']);
  const connection = await openDatabase(env);
  let app: INestApplication | undefined;
  let worker: ChildProcess | undefined;
  try {
    app = await createHttpApp(env, connection);
    await app.listen(0, '127.0.0.1');
    const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const dataSource = app.get(DataSource);
    const queue = app.get<Queue>(getQueueToken(QueueName.Ingestion), { strict: false });
    if (workers === 'process')
      worker = startWorkerProcess(env, { DATABASE_URL: connection.url }, 'the worker process');

    console.error(
      `corpus: ${lines.length} documents from ${values.dataset}; embedder ${bare.modelId}; workers ${workers}; ` +
        `INGESTION_CONCURRENCY=${env.INGESTION_CONCURRENCY}, EMBEDDINGS_BATCH_SIZE=${env.EMBEDDINGS_BATCH_SIZE}`,
    );
    // One document through the whole pipeline first, so the workers' model is loaded before the clock starts
    // (neither measurement below includes loading a model).
    await warmUp(baseUrl);

    // The chunks the pipeline will write, cut the same way beforehand (checked against the database below),
    // so the bare embedder can be timed both before and after the end-to-end run: the mean evens out
    // warm-up and the machine's other load.
    const chunking = {
      unit: 'chunk' as const,
      maxChars: env.CHUNK_MAX_CHARS,
      overlapChars: env.CHUNK_OVERLAP_CHARS,
    };
    const texts = lines.flatMap((line, i) => {
      const entry = JSON.parse(line) as { _id: string | number; title?: string | null; text: string };
      const title = (entry.title ?? '').trim() || String(entry._id);
      const text = entry.text.trim() ? entry.text : title;
      return chunkDocument({ documentId: String(i), title, text, format: 'plain' }, chunking).map(
        (c) => c.indexText,
      );
    });
    const rawBefore = await rawEmbedder(bare, env.EMBEDDINGS_BATCH_SIZE, texts, 'bare embedder (before)');
    const first = await ingestPass(baseUrl, corpusFile, lines.length, dataSource, 'first ingest ');
    const rawAfter = await rawEmbedder(bare, env.EMBEDDINGS_BATCH_SIZE, texts, 'bare embedder (after) ');
    const written: string[] = (await dataSource.query(CHUNK_INDEX_TEXTS_SQL)).map(
      (row: { index_text: string }) => row.index_text,
    );
    if (written.length !== texts.length || [...written].sort().join('\n') !== [...texts].sort().join('\n')) {
      throw new Error(
        `the pipeline wrote ${written.length} chunks, the benchmark expected ${texts.length} others`,
      );
    }
    const rawSeconds = (rawBefore + rawAfter) / 2;

    const duplicate = await upload(baseUrl, corpusFile);
    const duplicates = duplicate.filter((document) => document.duplicate && document.jobId === null).length;

    const ids: string[] = (await dataSource.query(DOCUMENT_IDS_SQL)).map((row: { id: string }) => row.id);
    for (const id of ids) {
      const response = await fetch(`${baseUrl}/documents/${id}`, { method: 'DELETE', headers: AUTH });
      if (!response.ok) throw new Error(`DELETE /documents/${id} answered ${response.status}`);
    }
    const second = await ingestPass(baseUrl, corpusFile, lines.length, dataSource, 'second ingest');

    const e2eChunkRate = first.chunks / first.seconds;
    const rawChunkRate = texts.length / rawSeconds;
    const summary = [
      `documents                      ${first.documents} (${first.failed} failed), ${first.chunks} chunks; workers ${workers}, concurrency ${env.INGESTION_CONCURRENCY}`,
      `end to end (upload → indexed)  ${first.seconds.toFixed(1)} s: ${(first.documents / first.seconds).toFixed(2)} documents/s, ${e2eChunkRate.toFixed(1)} chunks/s`,
      `bare embedder, same chunks     ${rawSeconds.toFixed(1)} s: ${rawChunkRate.toFixed(1)} chunks/s in batches of ${env.EMBEDDINGS_BATCH_SIZE} (mean of ${rawBefore.toFixed(1)} s before and ${rawAfter.toFixed(1)} s after)`,
      `end-to-end / embedder          ${(e2eChunkRate / rawChunkRate).toFixed(3)} (goal ≥ 0.85)`,
      `embeddings computed, 1st pass  ${first.computed}`,
      `same file uploaded again       ${duplicates} of ${lines.length} returned as existing documents, no job`,
      `after deleting, ingested again ${second.seconds.toFixed(1)} s: ${(second.documents / second.seconds).toFixed(2)} documents/s, ${(second.chunks / second.seconds).toFixed(1)} chunks/s`,
      `embeddings computed, 2nd pass  ${second.computed} (goal 0: every vector came from the cache)`,
    ];
    console.log(summary.join('\n'));
    await queue.obliterate({ force: true });
  } finally {
    if (worker) await stopProcess(worker);
    await app?.close();
    await connection.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Upload the corpus and wait until every document is indexed (or failed); timed from the upload. */
async function ingestPass(
  baseUrl: string,
  corpusFile: string,
  expected: number,
  dataSource: DataSource,
  label: string,
): Promise<PassResult> {
  const computedBefore = await cachedVectors(dataSource);
  const report = progressReporter(label);
  const started = performance.now();
  const accepted = await upload(baseUrl, corpusFile);
  if (accepted.length !== expected)
    throw new Error(`expected ${expected} documents, the upload made ${accepted.length}`);
  for (;;) {
    const [counts]: { indexed: number; failed: number; chunks: number }[] =
      await dataSource.query(INGEST_PROGRESS_SQL);
    report(counts.indexed + counts.failed, expected);
    if (counts.indexed + counts.failed >= expected) {
      return {
        seconds: (performance.now() - started) / 1000,
        documents: counts.indexed,
        chunks: counts.chunks,
        failed: counts.failed,
        computed: (await cachedVectors(dataSource)) - computedBefore,
      };
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
}

async function upload(
  baseUrl: string,
  corpusFile: string,
): Promise<{ duplicate: boolean; jobId: string | null }[]> {
  const form = new FormData();
  form.append('files', await openAsBlob(corpusFile, { type: 'application/x-ndjson' }), 'corpus.jsonl');
  const response = await fetch(`${baseUrl}/documents`, { method: 'POST', body: form, headers: AUTH });
  const body = (await response.json()) as {
    documents?: { duplicate: boolean; jobId: string | null }[];
    message?: string;
  };
  if (response.status !== 202 || !body.documents) {
    throw new Error(`upload answered ${response.status}: ${body.message ?? JSON.stringify(body)}`);
  }
  return body.documents;
}

/** Seconds (wall clock and CPU) the bare embedder takes for `texts` in the pipeline's batch size. */
async function rawEmbedder(
  bare: EmbeddingProvider,
  batchSize: number,
  texts: string[],
  label: string,
): Promise<number> {
  await bare.embed(['Lumina ingestion benchmark warm-up.']);
  const report = progressReporter(label);
  const started = performance.now();
  for (let i = 0; i < texts.length; i += batchSize) {
    await bare.embed(texts.slice(i, i + batchSize));
    report(Math.min(i + batchSize, texts.length), texts.length);
  }
  return (performance.now() - started) / 1000;
}

/** Vectors in the embedding cache: each one the model computed once (whichever process did it). */
async function cachedVectors(dataSource: DataSource): Promise<number> {
  const [{ n }]: { n: number }[] = await dataSource.query(CACHED_VECTORS_SQL);
  return n;
}

async function warmUp(baseUrl: string): Promise<void> {
  const response = await fetch(`${baseUrl}/documents/text`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...AUTH },
    body: JSON.stringify({
      title: 'Warm-up',
      text: 'The benchmark warms the workers up with this sentence.',
    }),
  });
  const { id } = (await response.json()) as { id: string };
  for (let i = 0; i < 1200; i++) {
    const document = (await (await fetch(`${baseUrl}/documents/${id}`, { headers: AUTH })).json()) as {
      status: string;
    };
    if (document.status === 'indexed') {
      await fetch(`${baseUrl}/documents/${id}`, { method: 'DELETE', headers: AUTH });
      return;
    }
    if (document.status === 'failed') throw new Error('the warm-up document failed');
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
  throw new Error('the workers did not index the warm-up document within two minutes');
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
