import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { DatasetFiles, NumberedLine, PathKind } from '@lumina/eval';

/** Streams a UTF-8 text file line by line (LF or CRLF), without loading it whole. */
export async function* readLines(file: string): AsyncGenerator<NumberedLine> {
  const input = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber++;
      yield { text: lineNumber === 1 ? line.replace(/^\uFEFF/, '') : line, lineNumber };
    }
  } finally {
    lines.close();
    input.destroy();
  }
}

async function kind(path: string): Promise<PathKind> {
  try {
    const info = await stat(path);
    if (info.isFile()) return 'file';
    return info.isDirectory() ? 'directory' : 'special file';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
}

async function list(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

/** The dataset loaders' files, on this machine's file system. */
export const nodeDatasetFiles: DatasetFiles = { lines: readLines, kind, list };
