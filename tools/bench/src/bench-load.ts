import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EmbeddingProvider } from '@lumina/rag';
import {
  createHttpApp,
  EMBEDDER,
  flags,
  generateApiKey,
  IndexingService,
  loadEnv,
  openDatabase,
  parseFlags,
} from '@lumina/server-core';
import { ScriptedOpenAiServer, searchBranchScript } from '@lumina/testing-llm';
import { DataSource } from 'typeorm';
import { adminQuery } from './sql/admin-query';
import { INSERT_SEED_DOCUMENT_SQL } from './sql/load-bench.sql';
import { createDatabaseSql, dropDatabaseSql } from './sql/scratch-database.sql';

const USAGE = `usage: npm run bench:load -- [--clients N] [--seconds T] [--llm-latency MS]
                        [--backends pglite,postgres] [--rankers bm25,hybrid]

Starts the real server in this process on 127.0.0.1 (workers in process, a scripted OpenAI-compatible LLM
on loopback answering after --llm-latency ms, default 20), seeds a small corpus, then runs N concurrent
clients (default 50) for T seconds (default 20), each alternating POST /rag/search and POST /chat (the event
stream read to its end). With --rankers, each ranker gets a phase of its own in which the clients only
search with it. --backends: the embedded database in a temporary folder (pglite) and/or a fresh database on
the PostgreSQL of DATABASE_URL (postgres, dropped afterwards); default pglite, plus postgres when
DATABASE_URL is set. Prints throughput, p50/p95/p99 latency per backend and route side by side, errors
(goal 0) and the process memory at the end.`;

type Backend = 'pglite' | 'postgres';
type Ranker = 'bm25' | 'hybrid' | 'dense';

const TOPICS = [
  [
    'Database failover',
    'Promote the standby replica, then repoint the writers to it and verify replication lag.',
  ],
  ['Backups', 'Nightly base backups are kept for 30 days; WAL archives allow point-in-time recovery.'],
  ['On-call', 'The on-call engineer acknowledges pages within five minutes and opens an incident channel.'],
  ['Deployments', 'Deploy with a canary at 5 percent, watch error rates for ten minutes, then roll out.'],
  ['Caching', 'The cache keeps hot keys for 60 seconds; invalidation happens on every write to the source.'],
  ['Rate limits', 'Clients get 120 requests per minute; a 429 answer carries Retry-After in seconds.'],
];
const QUESTIONS = [
  'How do I fail over the database?',
  'How long are backups kept?',
  'What does the on-call engineer do first?',
  'How are deployments rolled out?',
  'When is the cache invalidated?',
  'What happens above the rate limit?',
];

interface Sample {
  route: string;
  ms: number;
  ok: boolean;
}

interface Phase {
  backend: Backend;
  label: string;
  seconds: number;
  samples: Sample[];
  errors: Map<string, number>;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseFlags(
    argv,
    flags({
      string: 'backends rankers',
      boolean: 'help',
      defaults: { clients: '50', seconds: '20', 'llm-latency': '20' },
    }),
  );
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const clients = boundedInt('--clients', values.clients, 1, 500);
  const seconds = boundedInt('--seconds', values.seconds, 1, 600);
  const latency = boundedInt('--llm-latency', values['llm-latency'], 0, 10_000);
  const base = loadEnv();
  const backends = (values.backends ?? (base.DATABASE_URL ? 'pglite,postgres' : 'pglite'))
    .split(',')
    .map((b) => b.trim()) as Backend[];
  if (backends.some((b) => b !== 'pglite' && b !== 'postgres'))
    throw new Error('--backends must list pglite and/or postgres');
  if (backends.includes('postgres') && !base.DATABASE_URL)
    throw new Error('--backends postgres needs DATABASE_URL (a PostgreSQL with pgvector)');
  const rankers = values.rankers ? (values.rankers.split(',').map((r) => r.trim()) as Ranker[]) : null;
  if (rankers?.some((r) => !['bm25', 'hybrid', 'dense'].includes(r)))
    throw new Error('--rankers must list bm25, hybrid and/or dense');

  const phases: Phase[] = [];
  let llmCalls = 0;
  for (const backend of backends) {
    const run = await runBackend(backend, base.DATABASE_URL, { clients, seconds, latency, rankers });
    phases.push(...run.phases);
    llmCalls += run.llmCalls;
  }
  report({ clients, phases, memory: process.memoryUsage(), llmCalls });
  if (phases.some((phase) => phase.samples.some((sample) => !sample.ok))) process.exitCode = 1;
}

async function runBackend(
  backend: Backend,
  adminUrl: string | undefined,
  options: { clients: number; seconds: number; latency: number; rankers: Ranker[] | null },
): Promise<{ phases: Phase[]; llmCalls: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'lumina-bench-load-'));
  const adminKey = generateApiKey().key;
  const llm = await ScriptedOpenAiServer.start({ script: searchBranchScript, latencyMs: options.latency });
  const database = `lumina_load_${process.pid}`;
  let databaseUrl = '';
  if (backend === 'postgres') {
    await adminQuery(adminUrl!, dropDatabaseSql(database));
    await adminQuery(adminUrl!, createDatabaseSql(database));
    const url = new URL(adminUrl!);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  }
  const env = loadEnv({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    DATABASE_URL: databaseUrl,
    PGLITE_DATA_DIR: join(dir, 'pglite'),
    UPLOAD_DIR: join(dir, 'uploads'),
    QUEUE_PREFIX: `bench-load-${process.pid}-${backend}`,
    LLM_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'scripted',
    LLM_API_KEY: 'bench',
    // The limit counts per key; at full speed each client would hit it and measure the limit, not the server.
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_WRITES_PER_MINUTE: '1000000',
    ADMIN_API_KEY: adminKey,
  });
  const connection = await openDatabase(env);
  const app = await createHttpApp(env, connection);
  const phases: Phase[] = [];
  try {
    await app.listen(0, '127.0.0.1');
    const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    await seed(app.get(DataSource), app.get<EmbeddingProvider>(EMBEDDER));
    // Every client is a user with a key of its own, as people on a shared server would be.
    const keys = await Promise.all(
      Array.from({ length: options.clients }, (_, client) =>
        createUserKey(baseUrl, adminKey, `bench client ${client}`),
      ),
    );
    const workloads: { label: string; ranker: Ranker | null }[] = options.rankers
      ? options.rankers.map((ranker) => ({ label: `search ${ranker}`, ranker }))
      : [{ label: 'search + chat', ranker: null }];
    for (const workload of workloads) {
      console.error(`[${backend}] ${options.clients} clients, ${workload.label}, ${options.seconds} s …`);
      const samples: Sample[] = [];
      const errors = new Map<string, number>();
      const deadline = Date.now() + options.seconds * 1000;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: options.clients }, (_, client) =>
          runClient(client, keys[client], baseUrl, deadline, workload.ranker, samples, errors),
        ),
      );
      phases.push({
        backend,
        label: workload.label,
        seconds: (performance.now() - started) / 1000,
        samples,
        errors,
      });
    }
  } finally {
    await app.close();
    await connection.close();
    await llm.close();
    rmSync(dir, { recursive: true, force: true });
    if (backend === 'postgres') await adminQuery(adminUrl!, dropDatabaseSql(database));
  }
  return { phases, llmCalls: llm.calls };
}

async function seed(dataSource: DataSource, embedder: EmbeddingProvider): Promise<void> {
  const documents: { documentId: string; title: string; text: string; format: 'plain' }[] = [];
  for (let copy = 0; copy < 5; copy += 1) {
    for (const [title, text] of TOPICS) {
      const [row] = await dataSource.query(INSERT_SEED_DOCUMENT_SQL, [`${title} ${copy + 1}`]);
      documents.push({
        documentId: row.id,
        title: `${title} ${copy + 1}`,
        text: `${text} (${copy + 1})`,
        format: 'plain',
      });
    }
  }
  await new IndexingService(dataSource, embedder, {
    unit: 'chunk',
    maxChars: 400,
    overlapChars: 60,
  }).indexDocuments(documents);
}

async function createUserKey(baseUrl: string, adminKey: string, name: string): Promise<string> {
  const response = await fetch(`${baseUrl}/auth/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
    body: JSON.stringify({ name, role: 'user' }),
  });
  const body = (await response.json()) as { key?: string; message?: string };
  if (response.status !== 201 || !body.key) {
    throw new Error(`POST /auth/keys answered ${response.status}: ${body.message ?? JSON.stringify(body)}`);
  }
  return body.key;
}

async function runClient(
  client: number,
  key: string,
  baseUrl: string,
  deadline: number,
  ranker: Ranker | null,
  samples: Sample[],
  errors: Map<string, number>,
): Promise<void> {
  for (let i = client; Date.now() < deadline; i += 1) {
    const route = ranker || i % 2 === 0 ? 'search' : 'chat';
    const question = QUESTIONS[i % QUESTIONS.length];
    const start = performance.now();
    let ok = false;
    try {
      const response = await fetch(`${baseUrl}/${route === 'search' ? 'rag/search' : 'chat'}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify(
          route === 'chat'
            ? { message: question }
            : { query: question, ...(ranker ? { settings: { ranker } } : {}) },
        ),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await response.text();
      ok =
        response.status === 200 &&
        (route === 'search' ? text.includes('"results"') : /event: done/.test(text));
      if (!ok) count(errors, `${route}: HTTP ${response.status} ${text.slice(0, 120).replace(/\s+/g, ' ')}`);
    } catch (error) {
      count(errors, `${route}: ${(error as Error).message}`);
    }
    samples.push({ route: ranker ? `search ${ranker}` : route, ms: performance.now() - start, ok });
  }
}

function count(errors: Map<string, number>, key: string): void {
  errors.set(key, (errors.get(key) ?? 0) + 1);
}

function report(run: {
  clients: number;
  phases: Phase[];
  memory: NodeJS.MemoryUsage;
  llmCalls: number;
}): void {
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  console.log(`\nLoad: ${run.clients} clients (scripted LLM: ${run.llmCalls} calls)`);
  console.log('backend   route           requests   req/s     p50 ms   p95 ms   p99 ms   errors');
  for (const phase of run.phases) {
    const routes = [...new Set(phase.samples.map((sample) => sample.route))];
    for (const route of routes.length > 1 ? [...routes, 'all'] : routes) {
      const rows = phase.samples.filter((sample) => route === 'all' || sample.route === route);
      const ms = rows.map((sample) => sample.ms).sort((a, b) => a - b);
      console.log(
        [
          phase.backend.padEnd(9),
          route.padEnd(14),
          String(rows.length).padStart(8),
          (rows.length / phase.seconds).toFixed(1).padStart(7),
          percentile(ms, 0.5).toFixed(0).padStart(10),
          percentile(ms, 0.95).toFixed(0).padStart(8),
          percentile(ms, 0.99).toFixed(0).padStart(8),
          String(rows.filter((sample) => !sample.ok).length).padStart(8),
        ].join(' '),
      );
    }
    for (const [message, times] of phase.errors) console.log(`  error ×${times}: ${message}`);
  }
  console.log(
    `memory at the end: RSS ${mb(run.memory.rss)}, heap used ${mb(run.memory.heapUsed)} of ${mb(run.memory.heapTotal)}`,
  );
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

function boundedInt(flag: string, raw: string | undefined, min: number, max: number): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${flag} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
