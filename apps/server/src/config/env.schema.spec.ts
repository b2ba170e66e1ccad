import { availableParallelism } from 'node:os';
import { EnvValidationError, ENV_KEYS, validateEnv } from './env.schema';

describe('env schema', () => {
  it('runs offline with no variables set: embedded database, an in-process embedder, local Redis', () => {
    const env = validateEnv({ MODELS_DIR: '/nonexistent/lumina-models' });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PGLITE_DATA_DIR).toBe('./.data/pglite');
    expect(env.REDIS_URL).toBe('redis://127.0.0.1:6379');
    // auto, with no models fetched: USE-lite, and why (the models' case is in embedder-choice.spec.ts).
    expect(env.EMBEDDINGS_PROVIDER).toBe('local');
    expect(env.embeddingsFallback).toMatch(/not in \/nonexistent\/lumina-models\/all-minilm-l6-v2-int8/);
    expect(env.BM25_K1).toBe(0.9);
    expect(env.BM25_B).toBe(0.4);
    expect(env.WORKERS_IN_PROCESS).toBe(true);
    // The local model leaves one core to the rest of the server.
    expect(env.LLM_THREADS).toBe(Math.max(1, availableParallelism() - 1));
    expect(validateEnv({ MODELS_DIR: '/nonexistent/lumina-models', LLM_THREADS: '3' }).LLM_THREADS).toBe(3);
  });

  it('names every bad variable in one readable error', () => {
    let error: unknown;
    try {
      validateEnv({ PORT: 'eighty', REDIS_URL: 'not a url', WORKERS_IN_PROCESS: 'maybe' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvValidationError);
    const message = (error as Error).message;
    expect(message).toMatch(/PORT: .*got "eighty"/);
    expect(message).toMatch(/REDIS_URL: .*got "not a url"/);
    expect(message).toMatch(/WORKERS_IN_PROCESS/);
  });

  it('requires the endpoint, model and dimension for an OpenAI-compatible embedder', () => {
    expect(() => validateEnv({ EMBEDDINGS_PROVIDER: 'openai' })).toThrow(
      /EMBEDDINGS_BASE_URL: is required when EMBEDDINGS_PROVIDER=openai/,
    );
  });

  it('takes an embeddings endpoint by default when one is set, and asks for its model and width', () => {
    expect(() => validateEnv({ EMBEDDINGS_BASE_URL: 'http://127.0.0.1:9/v1' })).toThrow(
      /EMBEDDINGS_MODEL: is required when EMBEDDINGS_BASE_URL is set/,
    );
    const env = validateEnv({
      EMBEDDINGS_BASE_URL: 'http://127.0.0.1:9/v1',
      EMBEDDINGS_MODEL: 'bge-m3',
      EMBEDDINGS_DIMENSIONS: '1024',
    });
    expect(env.EMBEDDINGS_PROVIDER).toBe('openai');
    expect(env.embeddingsFallback).toBeUndefined();
  });

  it('never echoes a secret value', () => {
    expect(() => validateEnv({ DATABASE_URL: 'secret-not-a-url' })).toThrow(/DATABASE_URL: .*got "\*\*\*"/);
  });

  it('rejects an overlap as large as the chunk', () => {
    expect(() => validateEnv({ CHUNK_MAX_CHARS: '200', CHUNK_OVERLAP_CHARS: '200' })).toThrow(
      /CHUNK_OVERLAP_CHARS/,
    );
  });

  it('lists its keys for the compose and README checks', () => {
    expect(ENV_KEYS).toContain('DATABASE_URL');
    expect(ENV_KEYS).toContain('REDIS_URL');
  });
});

describe('env schema and empty values', () => {
  it('treats an empty value as unset', () => {
    const env = validateEnv({ DATABASE_URL: '', EMBEDDINGS_MODEL: '', PORT: '' });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.EMBEDDINGS_MODEL).toBeUndefined();
    expect(env.PORT).toBe(3000);
  });
});
