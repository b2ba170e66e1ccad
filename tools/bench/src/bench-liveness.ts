import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  flags,
  freePort,
  generateApiKey,
  loadEnv,
  parseFlags,
  SERVER_ENTRY_POINTS,
  UsageError,
} from '@lumina/server-core';
import { summarizeLatency } from './scale/latency-summary';
import { processEnv } from './server-processes';
import type { LatencySummary } from './scale/latency-summary';

const USAGE = `usage: npm run bench:liveness -- [--idle-seconds N] [--clients C] [--search-seconds T]

Starts the built server (dist, main.js) as a child process on loopback, embedded database in a temporary
folder, workers in process (the default), and probes GET /health/live (and GET /health/ready) one request
after another, every 25 ms, from this process:
  (a) idle, for --idle-seconds (default 10);
  (b) while a worst-case 1 MB Markdown document (heading lines with long runs of blanks, the shapes that
      made the heading patterns quadratic) and a worst-case 1 MB HTML document (about 90,000 nested
      <div>s) are ingested, until both are indexed or failed;
  (c) while C clients (default 50) run POST /rag/search back to back for T seconds (default 20).
Prints p50/p95/p99/max of each probe per phase, the goal (p99 of /health/live at most 200 ms in (b) and
(c)), and what became of the two documents.`;

const PROBE_GAP_MS = 25;
const GOAL_P99_MS = 200;
const ADMIN_KEY = generateApiKey().key;
const AUTH = { 'x-api-key': ADMIN_KEY };

/** Heading lines that each took the old ATX pattern from seconds to minutes, to about 1 MB. */
export function worstCaseMarkdown(): string {
  const parts = [
    '# Heading bombs\n\nA document made of heading lines that backtracking patterns choke on.\n\n',
    ...Array.from({ length: 3 }, () => `# a${' '.repeat(200_000)}b\n\nbody\n\n`),
    `## Title${' \t'.repeat(50_000)}###  \n\nbody\n\n`,
    `${'*a '.repeat(33_000)}\n===\n\nbody\n\n`,
    `${'[['.repeat(50_000)}\n---\n\nbody\n\n`,
    // An opening fence whose info string holds a line separator: the rest of the file is code.
    `${'`'.repeat(90_000)}\u2028\n# inside the fence\n`,
  ];
  return parts.join('');
}

/** About 1 MB of nested <div>s around one sentence. */
export function worstCaseHtml(): string {
  const depth = 90_000;
  return `<!doctype html><html><head><title>Nested</title></head><body>${'<div>'.repeat(depth)}Deep text.${'</div>'.repeat(depth)}</body></html>`;
}

interface Probe {
  live: number[];
  ready: number[];
  liveFailures: number;
  readyFailures: number;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseFlags(
    argv,
    flags({ boolean: 'help', defaults: { 'idle-seconds': '10', clients: '50', 'search-seconds': '20' } }),
  );
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const idleSeconds = boundedInt('--idle-seconds', values['idle-seconds'], 1, 600);
  const clients = boundedInt('--clients', values.clients, 1, 500);
  const searchSeconds = boundedInt('--search-seconds', values['search-seconds'], 1, 600);

  const dir = mkdtempSync(join(tmpdir(), 'lumina-bench-liveness-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = startServer(dir, port);
  try {
    await waitUntilReady(baseUrl, server);
    console.error(`server on ${baseUrl} (pid ${server.pid}); seeding a small corpus …`);
    await seed(baseUrl);

    const results: { phase: string; probe: Probe; note: string }[] = [];

    console.error(`(a) idle for ${idleSeconds} s …`);
    results.push({
      phase: '(a) idle',
      probe: await probeWhile(baseUrl, sleep(idleSeconds * 1000)),
      note: '',
    });

    console.error('(b) ingesting a worst-case 1 MB Markdown and a worst-case 1 MB HTML document …');
    const markdown = worstCaseMarkdown();
    const html = worstCaseHtml();
    const started = performance.now();
    const ingestion = (async () => {
      const ids = await upload(baseUrl, [
        { name: 'heading-bombs.md', type: 'text/markdown', content: markdown },
        { name: 'nested-divs.html', type: 'text/html', content: html },
      ]);
      return Promise.all(ids.map((id) => waitForTerminal(baseUrl, id, started)));
    })();
    const ingestProbe = await probeWhile(baseUrl, ingestion);
    const outcomes = await ingestion;
    results.push({
      phase: '(b) ingesting 2 × 1 MB',
      probe: ingestProbe,
      note: outcomes
        .map(
          (o) =>
            `${o.name} (${(o.bytes / 1e6).toFixed(2)} MB): ${o.status} after ${o.seconds.toFixed(1)} s` +
            (o.error ? ` — "${o.error}"` : ''),
        )
        .join('\n    '),
    });

    console.error(`(c) ${clients} clients searching for ${searchSeconds} s …`);
    const load = runSearchClients(baseUrl, clients, searchSeconds * 1000);
    const loadProbe = await probeWhile(baseUrl, load);
    const searches = await load;
    const searchLatency = summarizeLatency(searches.ms);
    results.push({
      phase: `(c) ${clients} clients searching`,
      probe: loadProbe,
      note: `${searches.ms.length} searches (${(searches.ms.length / searchSeconds).toFixed(1)}/s), ${searches.errors} errors; search p50 ${searchLatency.p50.toFixed(0)} ms, p99 ${searchLatency.p99.toFixed(0)} ms`,
    });

    report(results);
    const failed = results.slice(1).some((result) => summarizeLatency(result.probe.live).p99 > GOAL_P99_MS);
    if (failed) process.exitCode = 1;
  } finally {
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

function startServer(dir: string, port: number): ChildProcess {
  // Validated here, then handed to the child whole: a mistake shows before anything starts.
  const env = loadEnv({
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'error',
    PGLITE_DATA_DIR: join(dir, 'pglite'),
    UPLOAD_DIR: join(dir, 'uploads'),
    QUEUE_PREFIX: `bench-liveness-${process.pid}`,
    WORKERS_IN_PROCESS: 'true',
    ADMIN_API_KEY: ADMIN_KEY,
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_WRITES_PER_MINUTE: '1000000',
  });
  return spawn(process.execPath, [SERVER_ENTRY_POINTS.api], {
    env: processEnv(env),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(killer);
}

async function waitUntilReady(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the server exited (code ${child.exitCode}) before it was ready`);
    try {
      const response = await fetch(`${baseUrl}/health/ready`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error('the server was not ready within three minutes');
}

/** Probe /health/live and /health/ready, each sequentially with a short gap, until `until` settles. */
async function probeWhile(baseUrl: string, until: Promise<unknown>): Promise<Probe> {
  const probe: Probe = { live: [], ready: [], liveFailures: 0, readyFailures: 0 };
  let done = false;
  const finished = until.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  const loop = async (path: string, timings: number[], fail: () => void): Promise<void> => {
    while (!done) {
      const start = performance.now();
      try {
        const response = await fetch(`${baseUrl}${path}`, { signal: AbortSignal.timeout(30_000) });
        await response.arrayBuffer();
        if (response.status !== 200) fail();
      } catch {
        fail();
      }
      timings.push(performance.now() - start);
      await sleep(PROBE_GAP_MS);
    }
  };
  await Promise.all([
    loop('/health/live', probe.live, () => probe.liveFailures++),
    loop('/health/ready', probe.ready, () => probe.readyFailures++),
    finished,
  ]);
  await until;
  return probe;
}

async function seed(baseUrl: string): Promise<void> {
  const topics = [
    [
      'Database failover',
      'Promote the standby replica, then repoint the writers and verify replication lag.',
    ],
    ['Backups', 'Nightly base backups are kept for 30 days; WAL archives allow point-in-time recovery.'],
    ['On-call', 'The on-call engineer acknowledges pages within five minutes and opens an incident channel.'],
    ['Deployments', 'Deploy with a canary at 5 percent, watch error rates for ten minutes, then roll out.'],
  ];
  const started = performance.now();
  const ids: string[] = [];
  for (const [title, text] of topics) {
    const response = await fetch(`${baseUrl}/documents/text`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ title, text }),
    });
    const body = (await response.json()) as { document?: { id: string }; id?: string; message?: string };
    const id = body.document?.id ?? body.id;
    if (response.status !== 202 || !id) throw new Error(`POST /documents/text answered ${response.status}`);
    ids.push(id);
  }
  for (const id of ids) {
    const outcome = await waitForTerminal(baseUrl, id, started);
    if (outcome.status !== 'indexed') throw new Error(`a seed document ended ${outcome.status}`);
  }
}

async function upload(
  baseUrl: string,
  files: { name: string; type: string; content: string }[],
): Promise<string[]> {
  const form = new FormData();
  for (const file of files) form.append('files', new Blob([file.content], { type: file.type }), file.name);
  const response = await fetch(`${baseUrl}/documents`, { method: 'POST', body: form, headers: AUTH });
  const body = (await response.json()) as { documents?: { id: string }[]; message?: string };
  if (response.status !== 202 || !body.documents) {
    throw new Error(`upload answered ${response.status}: ${body.message ?? JSON.stringify(body)}`);
  }
  return body.documents.map((document) => document.id);
}

interface Outcome {
  name: string;
  bytes: number;
  status: string;
  error: string | null;
  seconds: number;
}

async function waitForTerminal(baseUrl: string, id: string, started: number): Promise<Outcome> {
  const deadline = Date.now() + 600_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/documents/${id}`, { headers: AUTH });
    const document = (await response.json()) as {
      sourceName: string | null;
      title: string;
      byteSize: number | null;
      status: string;
      error: string | null;
    };
    if (['indexed', 'failed', 'cancelled'].includes(document.status)) {
      return {
        name: document.sourceName ?? document.title,
        bytes: document.byteSize ?? 0,
        status: document.status,
        error: document.error,
        seconds: (performance.now() - started) / 1000,
      };
    }
    await sleep(200);
  }
  throw new Error(`document ${id} did not finish within ten minutes`);
}

async function runSearchClients(
  baseUrl: string,
  clients: number,
  durationMs: number,
): Promise<{ ms: number[]; errors: number }> {
  const queries = ['How do I fail over the database?', 'How long are backups kept?', 'Who answers pages?'];
  const ms: number[] = [];
  let errors = 0;
  const deadline = Date.now() + durationMs;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = client; Date.now() < deadline; i++) {
        const start = performance.now();
        try {
          const response = await fetch(`${baseUrl}/rag/search`, {
            method: 'POST',
            headers: { ...AUTH, 'content-type': 'application/json' },
            body: JSON.stringify({ query: queries[i % queries.length] }),
            signal: AbortSignal.timeout(60_000),
          });
          const text = await response.text();
          if (response.status !== 200 || !text.includes('"results"')) errors++;
        } catch {
          errors++;
        }
        ms.push(performance.now() - start);
      }
    }),
  );
  return { ms, errors };
}

function report(results: { phase: string; probe: Probe; note: string }[]): void {
  const row = (label: string, summary: LatencySummary, failures: number): string =>
    `  ${label.padEnd(14)}${String(summary.count).padStart(7)}${fmt(summary.p50)}${fmt(summary.p95)}${fmt(summary.p99)}${fmt(summary.max)}${String(failures).padStart(8)}`;
  console.log(`probe every ${PROBE_GAP_MS} ms, one request at a time; times in ms (client side, loopback)`);
  console.log(
    `  ${'route'.padEnd(14)}${'count'.padStart(7)}${'p50'.padStart(8)}${'p95'.padStart(8)}${'p99'.padStart(8)}${'max'.padStart(8)}${'non-200'.padStart(8)}`,
  );
  for (const { phase, probe, note } of results) {
    const live = summarizeLatency(probe.live);
    const verdict = phase.startsWith('(a)') ? '' : live.p99 <= GOAL_P99_MS ? '  goal met' : '  GOAL MISSED';
    console.log(
      `${phase}: /health/live p99 ${live.p99.toFixed(0)} ms (goal ≤ ${GOAL_P99_MS} ms in (b) and (c))${verdict}`,
    );
    console.log(row('/health/live', live, probe.liveFailures));
    console.log(row('/health/ready', summarizeLatency(probe.ready), probe.readyFailures));
    if (note) console.log(`    ${note}`);
  }
}

function fmt(value: number): string {
  return (Number.isFinite(value) ? value.toFixed(value < 10 ? 1 : 0) : '-').padStart(8);
}

function boundedInt(flag: string, value: string | undefined, min: number, max: number): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}`);
  }
  return parsed;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    if (error instanceof UsageError) console.error(USAGE);
    process.exit(1);
  });
}
