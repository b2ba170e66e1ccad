import { readFile } from 'node:fs/promises';
import { BeirFormatError, readBeirCorpus } from '@lumina/eval';
import type { BeirDocument } from '@lumina/eval';
import { nodeDatasetFiles } from '../../../files/node-dataset-files';

/** A corpus upload that is not a BEIR-style corpus; the message names the file and the line or entry. */
export class CorpusFormatError extends Error {
  override readonly name = 'CorpusFormatError';
}

/**
 * The entries of an uploaded BEIR-style corpus, each of which becomes its own document: `.jsonl` with one
 * `{"_id", "title", "text"}` per line (read with the eval harness's own BEIR reader), or `.json` holding
 * an array of such objects. An entry without text is indexed by its title.
 */
export async function readCorpusUpload(
  path: string,
  kind: 'json' | 'jsonl',
  name: string,
): Promise<BeirDocument[]> {
  const entries = kind === 'jsonl' ? await readJsonLines(path, name) : await readJsonArray(path, name);
  if (entries.length === 0) throw new CorpusFormatError(`"${name}" holds no corpus entries.`);
  return entries.map((entry) => {
    const title = entry.title.trim();
    if (!entry.text.trim() && !title) {
      throw new CorpusFormatError(`"${name}": entry "${entry.id}" has neither a title nor a text.`);
    }
    return { id: entry.id, title, text: entry.text.trim() ? entry.text : title };
  });
}

async function readJsonLines(path: string, name: string): Promise<BeirDocument[]> {
  try {
    return [...(await readBeirCorpus(path, nodeDatasetFiles)).values()];
  } catch (error) {
    if (error instanceof BeirFormatError) {
      throw new CorpusFormatError(
        `"${name}"${error.line === undefined ? '' : ` line ${error.line}`}: ${error.detail}. ` +
          'Each line must be a JSON object {"_id", "title", "text"}.',
      );
    }
    throw error;
  }
}

async function readJsonArray(path: string, name: string): Promise<BeirDocument[]> {
  let value: unknown;
  try {
    value = JSON.parse((await readFile(path, 'utf8')).replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new CorpusFormatError(`"${name}" is not valid JSON (${(error as Error).message}).`);
  }
  const items = Array.isArray(value) ? value : isObject(value) && '_id' in value ? [value] : null;
  if (!items) {
    throw new CorpusFormatError(
      `"${name}" must hold a BEIR-style corpus: an array of {"_id", "title", "text"} objects.`,
    );
  }
  const seen = new Set<string>();
  return items.map((item, index) => {
    const where = `"${name}" entry ${index + 1}`;
    if (!isObject(item)) throw new CorpusFormatError(`${where}: expected a JSON object.`);
    const id = typeof item._id === 'number' && Number.isFinite(item._id) ? String(item._id) : item._id;
    if (typeof id !== 'string' || id === '') {
      throw new CorpusFormatError(`${where}: "_id" must be a non-empty string or a number.`);
    }
    if (seen.has(id)) throw new CorpusFormatError(`${where}: duplicate _id "${id}".`);
    seen.add(id);
    if (typeof item.text !== 'string') throw new CorpusFormatError(`${where}: "text" must be a string.`);
    if (item.title !== undefined && item.title !== null && typeof item.title !== 'string') {
      throw new CorpusFormatError(`${where}: "title" must be a string.`);
    }
    return { id, title: typeof item.title === 'string' ? item.title : '', text: item.text };
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
