import type { HealthReport } from '@lumina/shared';
import { createApiClient } from '../api-client';
import { ApiError } from '../api-errors';
import { summariseHealth } from '../health-summary';

const base: HealthReport = {
  status: 'ok',
  database: { status: 'up', driver: 'pglite', latencyMs: 1 },
  redis: { status: 'up', latencyMs: 1 },
  llm: { configured: false, model: null, search: { source: 'offline', model: null }, local: null },
  reranker: { configured: false, model: null, source: null },
  embedder: { model: 'use-lite-512', dimension: 512, reembedding: null, fallback: null },
  documentLanguages: { en: 3 },
  uptimeSeconds: 12,
};

function serving(body: unknown, status = 200) {
  return createApiClient({
    baseUrl: 'http://api.test',
    fetch: async () =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  });
}

const online = (report: HealthReport) => summariseHealth({ phase: 'online', report, checkedAt: 0 });

describe('GET /health: who writes the search’s variants and HyDE passage', () => {
  it('reads the local model serving the search while answers stay extractive', async () => {
    const sent: HealthReport = {
      ...base,
      llm: {
        configured: false,
        model: null,
        search: { source: 'local', model: 'local/smollm2-135m-instruct-q4' },
        local: {
          model: 'smollm2-135m-instruct-q4',
          state: 'ready',
          description: null,
          sha256: 'b179',
          loadMs: 2500,
          threads: 2,
          sequences: 1,
        },
      },
    };
    const report = await serving(sent).getHealth();
    expect(report).toEqual(sent);
    const pill = online(report).llm;
    expect(pill).toMatchObject({ value: 'local: smollm2-135m-instruct-q4', tone: 'good' });
    expect(pill.title).toMatch(/writes query variants and HyDE passages; answers quote the passages/);
  });

  it('says why when the local model is asked for but missing', () => {
    const pill = online({
      ...base,
      llm: {
        configured: false,
        model: null,
        search: { source: 'offline', model: null },
        local: {
          model: 'smollm2-135m-instruct-q4',
          state: 'missing',
          description: null,
          sha256: null,
          loadMs: null,
          threads: null,
          sequences: null,
          reason: 'not in /models (run npm run models:fetch)',
        },
      },
    }).llm;
    expect(pill).toMatchObject({ value: 'offline', tone: 'warn' });
    expect(pill.title).toContain('missing: not in /models (run npm run models:fetch)');
  });

  it('names a configured endpoint model, and shows a degraded server’s services', async () => {
    const configured = { ...base, llm: { ...base.llm, configured: true, model: 'gpt' } };
    expect(online(configured).llm).toMatchObject({ value: 'gpt', tone: 'good' });
    const degraded = await serving(
      { ...base, status: 'degraded', redis: { status: 'down', latencyMs: 2000, error: 'timed out' } },
      503,
    ).getHealth();
    expect(online(degraded)).toMatchObject({
      api: { value: 'degraded', tone: 'warn' },
      database: { value: 'up', tone: 'good' },
      redis: { value: 'down', tone: 'bad' },
    });
  });

  it('refuses a report that breaks the contract (an unknown search source)', async () => {
    const odd = { ...base, llm: { ...base.llm, search: { source: 'gpu', model: null } } };
    const error = await serving(odd)
      .getHealth()
      .then(
        () => null,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('invalid_response');
  });
});
