import { BeirFormatError } from './beir-format-error';
import type { DatasetFiles } from './dataset-files';

export interface BeirDocument {
  id: string;
  title: string;
  text: string;
}

/** Reads a BEIR `corpus.jsonl`: one `{"_id", "title", "text", ...}` object per line. */
export async function readBeirCorpus(file: string, files: DatasetFiles): Promise<Map<string, BeirDocument>> {
  const corpus = new Map<string, BeirDocument>();
  for await (const { record, lineNumber } of readJsonObjects(file, files)) {
    const id = readId(record, file, lineNumber);
    if (corpus.has(id)) throw new BeirFormatError(`duplicate _id "${id}"`, file, lineNumber);
    const text = readString(record, 'text', file, lineNumber);
    // BEIR corpora always carry a title, often empty; tolerate it being absent or null
    const title =
      record.title === undefined || record.title === null
        ? ''
        : readString(record, 'title', file, lineNumber);
    corpus.set(id, { id, title, text });
  }
  return corpus;
}

/** Reads a BEIR `queries.jsonl`: one `{"_id", "text", ...}` object per line. Returns id -> text in file order. */
export async function readBeirQueries(file: string, files: DatasetFiles): Promise<Map<string, string>> {
  const queries = new Map<string, string>();
  for await (const { record, lineNumber } of readJsonObjects(file, files)) {
    const id = readId(record, file, lineNumber);
    if (queries.has(id)) throw new BeirFormatError(`duplicate _id "${id}"`, file, lineNumber);
    queries.set(id, readString(record, 'text', file, lineNumber));
  }
  return queries;
}

async function* readJsonObjects(
  file: string,
  files: DatasetFiles,
): AsyncGenerator<{ record: Record<string, unknown>; lineNumber: number }> {
  for await (const { text, lineNumber } of files.lines(file)) {
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new BeirFormatError(`malformed JSON (${reason})`, file, lineNumber);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new BeirFormatError(`expected a JSON object, found ${describe(value)}`, file, lineNumber);
    }
    yield { record: value as Record<string, unknown>, lineNumber };
  }
}

function readId(record: Record<string, unknown>, file: string, lineNumber: number): string {
  const id = record._id;
  if (id === undefined) throw new BeirFormatError('missing "_id"', file, lineNumber);
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  if (typeof id !== 'string') {
    throw new BeirFormatError(`"_id" must be a string or a number, found ${describe(id)}`, file, lineNumber);
  }
  if (id === '') throw new BeirFormatError('"_id" is empty', file, lineNumber);
  return id;
}

function readString(
  record: Record<string, unknown>,
  field: string,
  file: string,
  lineNumber: number,
): string {
  const value = record[field];
  if (typeof value !== 'string') {
    const found = value === undefined ? 'nothing (field missing)' : describe(value);
    throw new BeirFormatError(`"${field}" must be a string, found ${found}`, file, lineNumber);
  }
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value)}`;
}
