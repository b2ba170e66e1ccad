import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseEmbedder } from './embedder-choice';
import type { SentenceEncoderSpec } from './local-models/catalogue';
import { sha256Of } from './local-models/model-files';

const weights = Buffer.from('not really an ONNX graph');
const tokenizer = Buffer.from('{"model":{}}');

const encoder: SentenceEncoderSpec = {
  id: 'tiny-encoder',
  description: 'a stand-in with two pinned files',
  license: 'MIT',
  encoder: { dimension: 8, maxTokens: 16, pooling: 'mean' },
  wheels: [
    {
      project: 'tiny-encoder',
      filename: 'tiny_encoder-1.0-py3-none-any.whl',
      sha256: '0'.repeat(64),
      bytes: 1,
      files: [
        { from: 'a/model.onnx', to: 'model.onnx', sha256: sha256Of(weights), bytes: weights.length },
        {
          from: 'a/tokenizer.json',
          to: 'tokenizer.json',
          sha256: sha256Of(tokenizer),
          bytes: tokenizer.length,
        },
      ],
    },
  ],
};

describe('chooseEmbedder (EMBEDDINGS_PROVIDER=auto)', () => {
  let modelsDir: string;
  beforeEach(() => {
    modelsDir = mkdtempSync(join(tmpdir(), 'lumina-choice-'));
  });
  afterEach(() => rmSync(modelsDir, { recursive: true, force: true }));

  const auto = (extra: { EMBEDDINGS_BASE_URL?: string } = {}) =>
    chooseEmbedder({ EMBEDDINGS_PROVIDER: 'auto', MODELS_DIR: modelsDir, ...extra }, encoder);

  function install(files: Record<string, Buffer>): void {
    mkdirSync(join(modelsDir, encoder.id), { recursive: true });
    for (const [name, data] of Object.entries(files)) writeFileSync(join(modelsDir, encoder.id, name), data);
  }

  it('takes the sentence encoder when every file is there with its pinned sha256', () => {
    install({ 'model.onnx': weights, 'tokenizer.json': tokenizer });
    expect(auto()).toEqual({ provider: 'minilm', fallback: null });
  });

  it('falls back to USE-lite when the folder is missing, and says where it looked and how to mend it', () => {
    const choice = auto();
    expect(choice.provider).toBe('local');
    expect(choice.fallback).toContain(join(modelsDir, encoder.id));
    expect(choice.fallback).toMatch(/npm run models:fetch/);
    expect(choice.fallback).toMatch(/Universal Sentence Encoder lite/);
  });

  it('falls back when one file is missing or is not the pinned one', () => {
    install({ 'model.onnx': weights });
    expect(auto().provider).toBe('local');
    install({ 'model.onnx': Buffer.from('not really an ONNX graph!'), 'tokenizer.json': tokenizer });
    expect(auto().provider).toBe('local');
    install({ 'model.onnx': weights });
    expect(auto().provider).toBe('minilm');
  });

  it('lets a configured embeddings endpoint take precedence', () => {
    expect(auto({ EMBEDDINGS_BASE_URL: 'http://127.0.0.1:9/v1' })).toEqual({
      provider: 'openai',
      fallback: null,
    });
  });

  it('keeps an explicit choice, even one whose files are missing (the embedder says so when it loads)', () => {
    for (const provider of ['local', 'minilm', 'openai', 'hash'] as const) {
      expect(chooseEmbedder({ EMBEDDINGS_PROVIDER: provider, MODELS_DIR: modelsDir }, encoder)).toEqual({
        provider,
        fallback: null,
      });
    }
  });
});
