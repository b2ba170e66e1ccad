import { posix } from 'node:path';

export interface NumberedLine {
  /** Line content without its line break (and without a leading byte order mark on line 1). */
  text: string;
  /** 1-based line number in the file. */
  lineNumber: number;
}

export type PathKind = 'file' | 'directory' | 'missing' | 'special file';

/**
 * How the dataset loaders read files: a port, so libs/eval stays pure. The server gives the file system
 * (`nodeDatasetFiles`); tests and datasets built in memory give `memoryDatasetFiles`.
 */
export interface DatasetFiles {
  /** A UTF-8 text file line by line (LF or CRLF), numbered from 1, a leading byte order mark removed. */
  lines(file: string): AsyncIterable<NumberedLine>;
  kind(path: string): Promise<PathKind>;
  /** The names in a folder; [] when it cannot be read. */
  list(dir: string): Promise<string[]>;
}

/** A text's lines as `DatasetFiles.lines` yields them. */
export function numberLines(text: string): NumberedLine[] {
  if (text === '') return [];
  const lines = text.split('\n').map((line, i) => ({
    text: (i === 0 ? line.replace(/^\uFEFF/, '') : line).replace(/\r$/, ''),
    lineNumber: i + 1,
  }));
  // A final line break ends the last line; it does not start another.
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** Files held in memory, by path ('/' separated); folders are the paths' parents. Reads `files` at each
 *  call, so files added to the record later are seen. */
export function memoryDatasetFiles(files: Readonly<Record<string, string>>): DatasetFiles {
  const normal = (path: string) => posix.normalize(path).replace(/(.)\/$/, '$1');
  const snapshot = () => {
    const contents = new Map(Object.entries(files).map(([path, text]) => [normal(path), text]));
    const folders = new Set<string>();
    for (const path of contents.keys()) {
      for (let dir = posix.dirname(path); !folders.has(dir); dir = posix.dirname(dir)) {
        folders.add(dir);
        if (dir === posix.dirname(dir)) break;
      }
    }
    return { contents, folders };
  };
  return {
    async *lines(file) {
      const text = snapshot().contents.get(normal(file));
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${file}`), { code: 'ENOENT' });
      yield* numberLines(text);
    },
    async kind(path) {
      const { contents, folders } = snapshot();
      const key = normal(path);
      return contents.has(key) ? 'file' : folders.has(key) ? 'directory' : 'missing';
    },
    async list(dir) {
      const { contents, folders } = snapshot();
      const key = normal(dir);
      return [...contents.keys(), ...folders]
        .filter((path) => path !== key && posix.dirname(path) === key)
        .map((path) => posix.basename(path))
        .sort();
    },
  };
}
