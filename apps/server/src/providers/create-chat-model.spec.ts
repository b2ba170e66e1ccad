import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateEnv } from '../config/env.schema';
import { createChatModel, createLocalChatModel, searchModel } from './create-chat-model';
import { LocalChatModel } from './local-chat-model';
import { OpenAiChatModel } from './openai-chat-model';
import { SMOLLM2_135M_INSTRUCT } from './local-models/catalogue';

describe('which model writes the search’s expansion and HyDE', () => {
  const empty = mkdtempSync(join(tmpdir(), 'lumina-models-'));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));
  const env = (vars: Record<string, string>) => validateEnv({ NODE_ENV: 'test', MODELS_DIR: empty, ...vars });

  it('none by default: no endpoint and no local model (the offline stand-ins)', () => {
    const offline = env({});
    expect(offline.LLM_PROVIDER).toBe('none');
    expect(createLocalChatModel(offline)).toEqual({ state: 'off' });
    expect(searchModel(createChatModel(offline), createLocalChatModel(offline))).toBeNull();
  });

  it('LLM_PROVIDER=local with its file missing: offline, saying which file and how to get it', () => {
    const setup = createLocalChatModel(env({ LLM_PROVIDER: 'local' }));
    expect(setup).toEqual({
      state: 'missing',
      model: SMOLLM2_135M_INSTRUCT.id,
      reason: `${SMOLLM2_135M_INSTRUCT.id} is not in ${join(empty, SMOLLM2_135M_INSTRUCT.id)} (run npm run models:fetch): the search writes expansion and HyDE offline`,
    });
    expect(searchModel(null, setup)).toBeNull();
  });

  it('a file of the right size but another sha256 is refused like a missing one', () => {
    const dir = join(empty, SMOLLM2_135M_INSTRUCT.id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'model.gguf'), Buffer.alloc(SMOLLM2_135M_INSTRUCT.wheels[0].files[0].bytes));
    try {
      expect(createLocalChatModel(env({ LLM_PROVIDER: 'local' })).state).toBe('missing');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an endpoint (LLM_BASE_URL) takes precedence over the local model', () => {
    const both = env({ LLM_PROVIDER: 'local', LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'm' });
    expect(createLocalChatModel(both)).toEqual({ state: 'off' });
    const chat = createChatModel(both);
    expect(chat).toBeInstanceOf(OpenAiChatModel);
    expect(searchModel(chat, { state: 'ready', model: {} as LocalChatModel })).toBe(chat);
  });

  it('a ready local model writes them when no endpoint is configured', () => {
    const local = new LocalChatModel(SMOLLM2_135M_INSTRUCT, {
      modelsDir: empty,
      threads: 1,
      sequences: 2,
      contextSize: 512,
      maxTokens: 64,
      timeoutMs: 1000,
    });
    expect(searchModel(null, { state: 'ready', model: local })).toBe(local);
  });

  it('refuses an unknown local model and bad sizes at boot', () => {
    expect(() => env({ LLM_PROVIDER: 'local', LLM_LOCAL_MODEL: 'gpt-5' })).toThrow(/LLM_LOCAL_MODEL/);
    expect(() => env({ LLM_PROVIDER: 'remote' })).toThrow(/LLM_PROVIDER/);
    expect(() => env({ LLM_LOCAL_SEQUENCES: '0' })).toThrow(/LLM_LOCAL_SEQUENCES/);
  });
});
