import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LearnedReranker, LlmListwiseReranker, LTR_MODEL_FORMAT } from '@lumina/rag';
import type { ChatModel } from '@lumina/rag';
import { validateEnv } from '../config/env.schema';
import { createReranker } from './create-reranker';
import { HttpReranker } from './http-reranker';
import { OnnxCrossEncoderReranker } from './onnx-cross-encoder-reranker';

const MODEL = {
  format: LTR_MODEL_FORMAT,
  version: 'precedence-v1',
  features: ['bm25'],
  mean: [0],
  scale: [1],
  weights: [1],
  training: { source: 'hand-made' },
};

const chat = { modelId: 'chat' } as unknown as ChatModel;

describe('which reranker the environment configures', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lumina-reranker-'));
  const file = join(dir, 'model.json');
  writeFileSync(file, JSON.stringify(MODEL));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a /v1/rerank endpoint first, then the LLM listwise, then the fitted model, else none', () => {
    const env = (vars: Record<string, string>) => validateEnv({ NODE_ENV: 'test', ...vars });
    expect(
      createReranker(env({ RERANK_BASE_URL: 'http://127.0.0.1:9/v1', RERANK_MODEL_FILE: file }), chat),
    ).toBeInstanceOf(HttpReranker);
    expect(createReranker(env({ RERANK_MODEL_FILE: file }), chat)).toBeInstanceOf(LlmListwiseReranker);
    const learned = createReranker(env({ RERANK_MODEL_FILE: file }), null);
    expect(learned).toBeInstanceOf(LearnedReranker);
    expect(learned?.modelId).toBe('ltr:precedence-v1');
    expect(createReranker(env({}), null)).toBeNull();
  });

  it('the cross-encoder of RERANK_CROSS_ENCODER_DIR after the endpoint and before the LLM listwise', () => {
    const folder = join(dir, 'ms-marco-cross-encoder');
    mkdirSync(folder);
    writeFileSync(join(folder, 'model.onnx'), '');
    writeFileSync(join(folder, 'tokenizer.json'), '{}');
    const env = (vars: Record<string, string>) =>
      validateEnv({ NODE_ENV: 'test', RERANK_CROSS_ENCODER_DIR: folder, RERANK_MODEL_FILE: file, ...vars });
    expect(createReranker(env({ RERANK_BASE_URL: 'http://127.0.0.1:9/v1' }), chat)).toBeInstanceOf(
      HttpReranker,
    );
    const crossEncoder = createReranker(env({}), chat);
    expect(crossEncoder).toBeInstanceOf(OnnxCrossEncoderReranker);
    expect(crossEncoder?.modelId).toBe('cross-encoder:ms-marco-cross-encoder');
  });

  it('stops, naming the files, when RERANK_CROSS_ENCODER_DIR has no model', () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'tokenizer.json'), '{}');
    expect(() =>
      createReranker(validateEnv({ NODE_ENV: 'test', RERANK_CROSS_ENCODER_DIR: empty }), null),
    ).toThrow(/RERANK_CROSS_ENCODER_DIR: .*empty has no model\.onnx$/);
  });

  it('stops with the reason when the model file is not a model', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...MODEL, weights: [] }));
    expect(() => createReranker(validateEnv({ NODE_ENV: 'test', RERANK_MODEL_FILE: bad }), null)).toThrow(
      /RERANK_MODEL_FILE .*bad\.json: weights must hold 1 finite numbers/,
    );
  });
});
