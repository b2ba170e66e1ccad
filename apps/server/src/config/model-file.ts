import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const loaded = new Map<string, unknown>();

/**
 * A fitted model named by an environment variable (answerability model, expansion policy, learned
 * reranker): read, parsed and checked once per file; a bad file throws with the variable, the file and
 * the reason, so the boot stops saying which.
 */
export function loadModelFile<T>(variable: string, file: string, parse: (json: unknown) => T): T {
  const key = `${variable}\u0000${file}`;
  if (loaded.has(key)) return loaded.get(key) as T;
  let model: T;
  try {
    model = parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    // Node's own errors may come from another realm (not `instanceof Error` there): read the message.
    const reason =
      typeof (error as Error | undefined)?.message === 'string' ? (error as Error).message : String(error);
    throw new Error(`${variable} ${file}: ${reason}`);
  }
  loaded.set(key, model);
  return model;
}

/**
 * The fitted models the project ships: the repository's models/ folder, which the build copies beside its
 * output (the compiled tree mirrors the repository under the output folder, so the same path holds).
 */
export const SHIPPED_MODELS_DIR = join(__dirname, '..', '..', '..', '..', 'models');

/** A model the project ships (`name`: its file in models/), read and checked once like an installation's. */
export function loadShippedModel<T>(name: string, parse: (json: unknown) => T): T {
  return loadModelFile('shipped model', join(SHIPPED_MODELS_DIR, name), parse);
}
