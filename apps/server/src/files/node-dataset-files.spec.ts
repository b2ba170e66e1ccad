import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryDatasetFiles } from '@lumina/eval';
import type { NumberedLine } from '@lumina/eval';
import { nodeDatasetFiles, readLines } from './node-dataset-files';

const root = mkdtempSync(join(tmpdir(), 'read-lines-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function collect(file: string): Promise<NumberedLine[]> {
  const lines: NumberedLine[] = [];
  for await (const line of readLines(file)) lines.push(line);
  return lines;
}

describe('readLines', () => {
  it('reads the lines the in-memory files give for the same text', async () => {
    const text = '\uFEFFa\r\n\nb\r\n\uFEFFc\n';
    const file = join(root, 'same.txt');
    writeFileSync(file, text);
    const memory: NumberedLine[] = [];
    for await (const line of memoryDatasetFiles({ '/m.txt': text }).lines('/m.txt')) memory.push(line);
    expect(await collect(file)).toEqual(memory);
  });

  it('tells files, folders and missing paths apart, and lists a folder', async () => {
    writeFileSync(join(root, 'listed.txt'), 'x');
    expect(await nodeDatasetFiles.kind(join(root, 'listed.txt'))).toBe('file');
    expect(await nodeDatasetFiles.kind(root)).toBe('directory');
    expect(await nodeDatasetFiles.kind(join(root, 'nope'))).toBe('missing');
    expect(await nodeDatasetFiles.list(root)).toContain('listed.txt');
    expect(await nodeDatasetFiles.list(join(root, 'nope'))).toEqual([]);
  });

  it('numbers lines from 1, keeps blank lines and strips CRLF and a leading byte order mark', async () => {
    const file = join(root, 'mixed.txt');
    // "\uFEFFa" CRLF, "" LF, "b" CRLF, "\uFEFFc" (a BOM past line 1 is content) -> 4 lines
    writeFileSync(file, '\uFEFFa\r\n\nb\r\n\uFEFFc');
    expect(await collect(file)).toEqual([
      { text: 'a', lineNumber: 1 },
      { text: '', lineNumber: 2 },
      { text: 'b', lineNumber: 3 },
      { text: '\uFEFFc', lineNumber: 4 },
    ]);
  });

  it('yields nothing for an empty file and fails for a missing one', async () => {
    const empty = join(root, 'empty.txt');
    writeFileSync(empty, '');
    expect(await collect(empty)).toEqual([]);
    await expect(collect(join(root, 'absent.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('can stop early', async () => {
    const file = join(root, 'long.txt');
    // 1000 lines "line 1" .. "line 1000"; stop after the third
    writeFileSync(file, Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join('\n'));
    const seen: string[] = [];
    for await (const { text } of readLines(file)) {
      seen.push(text);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(['line 1', 'line 2', 'line 3']);
  });
});
