import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ENV_KEYS, readLines, SERVER_ENTRY_POINTS } from '@lumina/server-core';
import type { Env } from '@lumina/server-core';

/** A validated environment as a child process's variables (lists comma-separated), with `overrides`. */
export function processEnv(env: Env, overrides: Record<string, string> = {}): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const key of ENV_KEYS) {
    const value: unknown = env[key];
    if (value !== undefined) variables[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return { ...variables, ...overrides };
}

/**
 * The production layout's worker process (worker.js) on the database and queues of `env`, which the
 * API in this process migrated; `name` says which worker stopped, should one stop by itself.
 */
export function startWorkerProcess(env: Env, overrides: Record<string, string>, name: string): ChildProcess {
  const child = spawn(process.execPath, [SERVER_ENTRY_POINTS.worker], {
    env: processEnv(env, { DATABASE_MIGRATIONS_RUN: 'false', WORKERS_IN_PROCESS: 'false', ...overrides }),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') console.error(`${name} stopped (${signal ?? `exit ${code}`})`);
  });
  return child;
}

/** SIGTERM to a child that still runs, and its exit. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  child.kill('SIGTERM');
  await exited;
}

/** The first `limit` documents of <dataset>/corpus.jsonl, written to `file` for an upload; their lines. */
export async function sampleCorpus(dataset: string, limit: number, file: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const { text } of readLines(join(resolve(dataset), 'corpus.jsonl'))) {
    if (!text.trim()) continue;
    lines.push(text);
    if (lines.length === limit) break;
  }
  writeFileSync(file, lines.join('\n') + '\n');
  return lines;
}
