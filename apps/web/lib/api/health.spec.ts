import { summariseHealth } from '../health-summary';
import { parseHealth } from './health';

const base = { status: 'ok', database: { status: 'up', driver: 'pglite' }, redis: { status: 'up' } };

describe('GET /health: who writes the search’s variants and HyDE passage', () => {
  it('reads the local model serving the search while answers stay extractive', () => {
    const report = parseHealth({
      ...base,
      llm: {
        configured: false,
        model: null,
        search: { source: 'local', model: 'local/smollm2-135m-instruct-q4' },
        local: { model: 'smollm2-135m-instruct-q4', state: 'ready', sha256: 'b179', loadMs: 2500 },
      },
    });
    expect(report?.llm).toEqual({
      configured: false,
      status: 'not-configured',
      search: { source: 'local', model: 'local/smollm2-135m-instruct-q4' },
      local: { model: 'smollm2-135m-instruct-q4', state: 'ready' },
    });
    const pill = summariseHealth({ phase: 'online', report: report!, checkedAt: 0 }).llm;
    expect(pill).toMatchObject({ value: 'local: smollm2-135m-instruct-q4', tone: 'good' });
    expect(pill.title).toMatch(/writes query variants and HyDE passages; answers quote the passages/);
  });

  it('says why when the local model is asked for but missing', () => {
    const report = parseHealth({
      ...base,
      llm: {
        configured: false,
        model: null,
        search: { source: 'offline', model: null },
        local: {
          model: 'smollm2-135m-instruct-q4',
          state: 'missing',
          reason: 'not in /models (run npm run models:fetch)',
        },
      },
    });
    const pill = summariseHealth({ phase: 'online', report: report!, checkedAt: 0 }).llm;
    expect(pill).toMatchObject({ value: 'offline', tone: 'warn' });
    expect(pill.title).toContain('missing: not in /models (run npm run models:fetch)');
  });

  it('ignores a search source or local state it does not know, and reads older servers as before', () => {
    const odd = parseHealth({
      ...base,
      llm: { configured: false, search: { source: 'gpu' }, local: { model: 'x', state: 'warming' } },
    });
    expect(odd?.llm).toEqual({ configured: false, status: 'not-configured' });
    const older = parseHealth({ ...base, llm: { configured: true, model: 'gpt' } });
    expect(older?.llm).toEqual({ configured: true, status: 'unknown', model: 'gpt' });
    expect(summariseHealth({ phase: 'online', report: older!, checkedAt: 0 }).llm.value).toBe('gpt');
  });
});
