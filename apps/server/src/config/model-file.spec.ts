import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModelFile } from './model-file';

describe('loadModelFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'model-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('parses a file once and hands back the same model after', () => {
    const file = join(dir, 'model.json');
    writeFileSync(file, JSON.stringify({ version: 'v1' }));
    let parsed = 0;
    const parse = (json: unknown) => (parsed++, json as { version: string });
    const first = loadModelFile('SOME_MODEL_FILE', file, parse);
    writeFileSync(file, JSON.stringify({ version: 'v2' }));
    expect(loadModelFile('SOME_MODEL_FILE', file, parse)).toBe(first);
    expect(first).toEqual({ version: 'v1' });
    expect(parsed).toBe(1);
  });

  it('names the variable, the file and the reason when a file is missing, not JSON, or not a model', () => {
    const notJson = join(dir, 'broken.json');
    writeFileSync(notJson, '{ nope');
    const reject = () => {
      throw new TypeError('not a model: version must be a non-empty string');
    };
    expect(() => loadModelFile('A_FILE', join(dir, 'missing.json'), reject)).toThrow(
      /^A_FILE .*missing\.json: ENOENT/,
    );
    expect(() => loadModelFile('A_FILE', notJson, reject)).toThrow(/^A_FILE .*broken\.json: .*JSON/);
    const valid = join(dir, 'other.json');
    writeFileSync(valid, '{}');
    expect(() => loadModelFile('A_FILE', valid, reject)).toThrow(
      /^A_FILE .*other\.json: not a model: version must be a non-empty string$/,
    );
  });
});
