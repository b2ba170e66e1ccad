/**
 * The running system the browser tests drive: the scripted LLM (in this process), the real API
 * server (built, with an embedded PGlite in a temporary folder, a unique BullMQ prefix and the real
 * Redis) and the built web app (`next start`). Jest's global setup starts it and writes where
 * everything listens to STACK_FILE; the specs read that file; the global teardown stops it all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ApiOperationName } from '../../lib/api-operations';
import { matchOperations } from '../../lib/openapi-paths';

export const WORKSPACE_ROOT = path.resolve(__dirname, '../../../..');
export const STACK_FILE = path.join(WORKSPACE_ROOT, 'tmp', 'e2e-stack.json');
const SERVER_MAIN =
  process.env.E2E_SERVER_MAIN ?? path.join(WORKSPACE_ROOT, 'dist/apps/server/apps/server/src/main.js');

export interface StackInfo {
  webUrl: string;
  apiUrl: string;
  llmUrl: string;
  /** Operations of the web app's client that the running server does not have. */
  missing: ApiOperationName[];
  pids: number[];
  dataDir: string;
  logs: { api: string; web: string };
}

/** The folder the stack's server lets folder and Git sources read (inside its data folder). */
export function sourceRoot(dataDir: string): string {
  return path.join(dataDir, 'source-roots');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, what: string, child: ChildProcess, log: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(
        `${what} exited with code ${child.exitCode} before answering; its log (${log}):\n${tail(log)}`,
      );
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `${what} did not answer at ${url} within ${timeoutMs / 1000} s; its log (${log}):\n${tail(log)}`,
  );
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '(no log)';
  }
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv, log: string): ChildProcess {
  const fd = openSync(log, 'w');
  const child = spawn(command, args, { cwd: WORKSPACE_ROOT, env, stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  return child;
}

export interface ApiProcess {
  url: string;
  child: ChildProcess;
  dataDir: string;
  log: string;
}

/**
 * Starts the built API server on a free port with its own embedded database and queue prefix. With
 * `llmUrl` null it runs offline (no LLM_BASE_URL): the extractive answerer and no general knowledge.
 */
export async function startApi(options: {
  llmUrl: string | null;
  webUrl: string;
  log: string;
  port?: number;
  /** More environment for this server (the in-process models, say), over the defaults below. */
  env?: Record<string, string>;
}): Promise<ApiProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lumina-e2e-'));
  // Folder and Git sources may read what the suites put under the data folder's source root.
  mkdirSync(sourceRoot(dataDir), { recursive: true });
  const { ADMIN_API_KEY: _admin, DATABASE_URL: _database, LLM_BASE_URL: _llm, ...inherited } = process.env;
  const llm = options.llmUrl
    ? {
        LLM_BASE_URL: `${options.llmUrl}/v1`,
        LLM_MODEL: 'scripted-e2e',
        LLM_API_KEY: 'e2e',
        LLM_MAX_RETRIES: '0',
      }
    : {};
  const child = start(
    process.execPath,
    [SERVER_MAIN],
    {
      ...inherited,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: process.env.E2E_API_LOG_LEVEL ?? 'warn',
      PGLITE_DATA_DIR: dataDir,
      QUEUE_PREFIX: `e2e-${process.pid}-${port}-${Date.now().toString(36)}`,
      WEB_ORIGIN: options.webUrl,
      WORKERS_IN_PROCESS: 'true',
      EMBEDDINGS_PROVIDER: 'local',
      SOURCE_FOLDER_ROOTS: sourceRoot(dataDir),
      SOURCE_CACHE_DIR: path.join(dataDir, 'source-cache'),
      ...llm,
      ...options.env,
    },
    options.log,
  );
  return { url, child, dataDir, log: options.log };
}

export async function waitForApi(api: ApiProcess): Promise<void> {
  await waitFor(`${api.url}/health`, 'The API server', api.child, api.log);
}

/**
 * Starts the built web app (`next start`) on `port`, talking to the API at `apiUrl`. A suite whose
 * server answers slowly (the in-process models) runs its own pair instead of routing the shared web
 * app's requests, which would hold a streamed answer back until it ends.
 */
export function startWeb(options: { port: number; apiUrl: string; log: string }): ChildProcess {
  const { ADMIN_API_KEY: _admin, DATABASE_URL: _database, ...inherited } = process.env;
  return start(
    process.execPath,
    [
      path.join(WORKSPACE_ROOT, 'node_modules/next/dist/bin/next'),
      'start',
      'apps/web',
      '-H',
      '127.0.0.1',
      '-p',
      String(options.port),
    ],
    { ...inherited, NODE_ENV: 'production', LUMINA_API_URL: options.apiUrl },
    options.log,
  );
}

export async function waitForWeb(url: string, web: ChildProcess, log: string): Promise<void> {
  await waitFor(`${url}/`, 'The web app', web, log);
}

export async function startStack(llmUrl: string): Promise<StackInfo> {
  if (!existsSync(SERVER_MAIN)) {
    throw new Error(`The API server is not built (${SERVER_MAIN}); run "npx nx run server:build" first.`);
  }
  if (!existsSync(path.join(WORKSPACE_ROOT, 'apps/web/.next/BUILD_ID'))) {
    throw new Error('The web app is not built; run "npx next build apps/web" first.');
  }
  const webPort = await freePort();
  const webUrl = `http://127.0.0.1:${webPort}`;
  const logs = {
    api: path.join(WORKSPACE_ROOT, 'tmp', 'e2e-api.log'),
    web: path.join(WORKSPACE_ROOT, 'tmp', 'e2e-web.log'),
  };
  const api = await startApi({ llmUrl, webUrl, log: logs.api });
  const apiUrl = api.url;
  const dataDir = api.dataDir;
  const web = startWeb({ port: webPort, apiUrl, log: logs.web });
  const pids = [api.child.pid, web.pid].filter((pid): pid is number => typeof pid === 'number');
  try {
    await Promise.all([waitForApi(api), waitForWeb(webUrl, web, logs.web)]);
  } catch (error) {
    stopProcesses(pids);
    throw error;
  }
  const document = (await (await fetch(`${apiUrl}/api/docs-json`)).json()) as unknown;
  const info: StackInfo = {
    webUrl,
    apiUrl,
    llmUrl,
    missing: matchOperations(document).missing,
    pids,
    dataDir,
    logs,
  };
  writeFileSync(STACK_FILE, JSON.stringify(info, null, 2));
  return info;
}

/** SIGTERM to each process group, SIGKILL to what is still there after a grace period. */
export function stopProcesses(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

export function killLeftovers(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

export function readStack(): StackInfo {
  return JSON.parse(readFileSync(STACK_FILE, 'utf8')) as StackInfo;
}

export function removeDataDir(dir: string): void {
  if (dir.startsWith(tmpdir())) rmSync(dir, { recursive: true, force: true });
}
