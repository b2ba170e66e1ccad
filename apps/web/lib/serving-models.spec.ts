import type { HealthReport } from '@lumina/shared';
import { servingModels } from './serving-models';

const offline: HealthReport = {
  status: 'ok',
  database: { status: 'up', driver: 'pglite', latencyMs: 1 },
  redis: { status: 'up', latencyMs: 1 },
  llm: { configured: false, model: null, search: { source: 'offline', model: null }, local: null },
  reranker: { configured: false, model: null, source: null },
  embedder: { model: 'use-lite-512', dimension: 512, reembedding: null, fallback: null },
  documentLanguages: {},
  uptimeSeconds: 1,
};

const byRole = (report: HealthReport) =>
  Object.fromEntries(servingModels(report).map((row) => [row.role, row]));

describe('servingModels: which models serve, for the settings drawer', () => {
  it('offline: stand-ins and the weak default encoder are named as such, never as models', () => {
    const rows = byRole(offline);
    expect(Object.keys(rows)).toEqual(['Query variants and HyDE', 'Embeddings', 'Reranker', 'Answers']);
    expect(rows['Query variants and HyDE']).toMatchObject({ name: 'offline stand-ins', tone: 'muted' });
    expect(rows['Embeddings']).toMatchObject({ name: 'Universal Sentence Encoder lite', tone: 'warn' });
    expect(rows['Embeddings']?.detail).toMatch(/^512-d, offline; a weak encoder/);
    expect(rows['Reranker']).toMatchObject({ name: 'none', tone: 'muted' });
    expect(rows['Answers']).toMatchObject({ name: 'extractive', tone: 'muted' });
  });

  it('in-process models: the local LLM with its pinned sha256 and load time, MiniLM by its name', () => {
    const rows = byRole({
      ...offline,
      llm: {
        configured: false,
        model: null,
        search: { source: 'local', model: 'local/smollm2-135m-instruct-q4' },
        local: {
          model: 'smollm2-135m-instruct-q4',
          state: 'ready',
          description: null,
          sha256: 'b179c952a0b1c2d3e4f5',
          loadMs: 2480,
          threads: 2,
          sequences: 2,
        },
      },
      embedder: { model: 'all-minilm-l6-v2-int8', dimension: 384, reembedding: null, fallback: null },
    });
    expect(rows['Query variants and HyDE']).toMatchObject({ name: 'smollm2-135m-instruct-q4', tone: 'good' });
    expect(rows['Query variants and HyDE']?.detail).toBe(
      "A small model in the server's process, sha256 b179c952a0b1…, loaded in 2.5 s.",
    );
    expect(rows['Embeddings']).toMatchObject({
      name: 'all-MiniLM-L6-v2',
      detail: "384-d, run by the server's process.",
      tone: 'good',
    });
  });

  it('says before its first request that the local model loads then, and why a missing one is missing', () => {
    const local = {
      model: 'smollm2-135m-instruct-q4',
      description: null,
      sha256: null,
      threads: null,
      sequences: null,
      loadMs: null,
    };
    const waiting = byRole({
      ...offline,
      llm: { ...offline.llm, search: { source: 'local', model: null }, local: { ...local, state: 'ready' } },
    });
    expect(waiting['Query variants and HyDE']?.detail).toBe(
      "A small model in the server's process, loaded at its first request.",
    );
    const missing = byRole({
      ...offline,
      llm: {
        ...offline.llm,
        local: { ...local, state: 'missing', reason: 'model.gguf is not in the models folder' },
      },
    });
    expect(missing['Query variants and HyDE']).toMatchObject({ name: 'offline stand-ins', tone: 'warn' });
    expect(missing['Query variants and HyDE']?.detail).toContain(
      'asked for but missing: model.gguf is not in the models folder.',
    );
  });

  it('endpoints: the chat model answers and writes the variants, the reranker says what serves it', () => {
    const rows = byRole({
      ...offline,
      llm: {
        configured: true,
        model: 'gpt-4o-mini',
        search: { source: 'endpoint', model: 'gpt-4o-mini' },
        local: null,
      },
      reranker: { configured: true, model: 'rerank:bge-reranker-base', source: 'endpoint' },
      embedder: {
        model: 'openai:text-embedding-3-small',
        dimension: 1536,
        reembedding: null,
        fallback: null,
      },
    });
    expect(rows['Answers']).toMatchObject({ name: 'gpt-4o-mini', tone: 'good' });
    expect(rows['Query variants and HyDE']).toMatchObject({ name: 'gpt-4o-mini', tone: 'good' });
    expect(rows['Reranker']).toMatchObject({
      name: 'rerank:bge-reranker-base',
      detail: 'Served by a rerank endpoint.',
    });
    expect(rows['Embeddings']).toMatchObject({
      name: 'text-embedding-3-small',
      detail: '1536-d, run by an embeddings endpoint.',
    });
  });

  it('shows a re-embedding under way after a change of embedder', () => {
    const rows = byRole({
      ...offline,
      embedder: {
        model: 'all-minilm-l6-v2-int8',
        dimension: 384,
        reembedding: { done: 1200, total: 8687 },
        fallback: null,
      },
    });
    expect(rows['Embeddings']).toMatchObject({ name: 'all-MiniLM-L6-v2', tone: 'warn' });
    expect(rows['Embeddings']?.detail).toBe(
      "384-d, run by the server's process. Re-embedding the passages after a change of embedder: 1,200 of " +
        '8,687 done; keyword search covers all of them meanwhile.',
    );
  });

  it('says when the default sentence encoder is missing, what serves instead and how to mend it', () => {
    const fallback =
      'all-minilm-l6-v2-int8 is not in /srv/models/all-minilm-l6-v2-int8 with its pinned sha256 (run npm run ' +
      'models:fetch, then restart): dense search runs on Universal Sentence Encoder lite, too weak to move ' +
      'the hybrid ranking, so keywords carry it';
    const rows = byRole({ ...offline, embedder: { ...offline.embedder, fallback } });
    expect(rows['Embeddings']).toMatchObject({ name: 'Universal Sentence Encoder lite', tone: 'warn' });
    expect(rows['Embeddings']?.detail).toBe(
      `512-d, offline; a weak encoder, so keywords carry the hybrid ranking. The default encoder is missing: ${fallback}.`,
    );
  });

  it('names an in-process cross-encoder as the reranker', () => {
    const rows = byRole({
      ...offline,
      reranker: { configured: true, model: 'cross-encoder:ms-marco-minilm-l6', source: 'cross-encoder' },
    });
    expect(rows['Reranker']).toMatchObject({
      name: 'cross-encoder:ms-marco-minilm-l6',
      detail: "Served by a cross-encoder in the server's process.",
      tone: 'good',
    });
  });
});
