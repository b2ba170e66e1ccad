import { DataSource } from 'typeorm';
import type { Json } from './helpers/http';
import { completion, ScriptedOpenAiServer } from '@lumina/testing-llm';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

const ADMIN_KEY = 'generation-admin-key-0123';

/** An HTTP client for a test app that sends the admin key unless told not to. */
function client(server: () => TestApp) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    options: { key?: string | null } = {},
  ): Promise<{ status: number; body: Json }> => {
    const key = options.key === undefined ? ADMIN_KEY : options.key;
    const response = await fetch(`${server().baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(key ? { 'x-api-key': key } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
}

async function waitForJob(call: ReturnType<typeof client>, statusUrl: string): Promise<Json> {
  // Generous: on a loaded machine a job waits its turn behind other suites' work.
  const until = Date.now() + 120_000;
  for (;;) {
    const status = await call('GET', statusUrl);
    expect(status.status).toBe(200);
    if (status.body.state === 'completed' || status.body.state === 'failed') return status.body;
    if (Date.now() > until) throw new Error(`generation job still ${status.body.state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('question generation with an LLM (scripted OpenAI-compatible server)', () => {
  let llm: ScriptedOpenAiServer;
  let server: TestApp;
  let documentIds: string[];
  const call = client(() => server);

  beforeAll(async () => {
    llm = await ScriptedOpenAiServer.start();
    server = await startTestApp(
      testEnv({
        ADMIN_API_KEY: ADMIN_KEY,
        LLM_BASE_URL: llm.baseUrl,
        LLM_MODEL: 'question-writer',
        LLM_MAX_RETRIES: '0',
      }),
    );
    documentIds = await seedDocuments(server.app.get(DataSource), null, RUNBOOK_CORPUS);
  });

  afterEach(() => llm.reset());

  afterAll(async () => {
    await server.close();
    await llm.close();
  });

  it('needs a key (401 without), and a write grant on the bank’s collection: a user key without one sees no bank', async () => {
    const anonymous = await call('POST', '/question-banks', { name: 'x' }, { key: null });
    expect(anonymous.status).toBe(401);
    expect(
      (await call('POST', '/question-banks', { name: 'x' }, { key: 'wrong-key-wrong-key-000' })).status,
    ).toBe(401);
    const bank = await call('POST', '/question-banks', { name: 'Guarded' });
    expect(bank.status).toBe(201);
    for (const [method, path] of [
      ['POST', '/question-templates'],
      ['PATCH', `/question-banks/${bank.body.id}`],
      ['DELETE', `/question-banks/${bank.body.id}`],
      ['POST', `/question-banks/${bank.body.id}/items`],
      ['POST', `/question-banks/${bank.body.id}/import`],
      ['POST', `/question-banks/${bank.body.id}/generate`],
      ['POST', `/question-banks/${bank.body.id}/evaluate`],
    ]) {
      expect({ method, path, status: (await call(method, path, {}, { key: null })).status }).toEqual({
        method,
        path,
        status: 401,
      });
    }
    const user = await call('POST', '/auth/keys', { name: 'Question reader', role: 'user' });
    expect(user.status).toBe(201);
    for (const path of [`/question-banks/${bank.body.id}`, '/question-banks', '/question-templates']) {
      expect((await call('GET', path, undefined, { key: null })).status).toBe(401);
      expect((await call('GET', path)).status).toBe(200);
    }
    const asUser = { key: user.body.key as string };
    // Its collection is not the key's: the bank is hidden as one that does not exist, and lists are empty.
    expect((await call('GET', `/question-banks/${bank.body.id}`, undefined, asUser)).status).toBe(404);
    expect((await call('POST', `/question-banks/${bank.body.id}/generate`, {}, asUser)).status).toBe(404);
    expect((await call('GET', '/question-banks', undefined, asUser)).body.total).toBe(0);
    // Templates serve every collection: read by any key, changed by an admin.
    expect((await call('GET', '/question-templates', undefined, asUser)).status).toBe(200);
    expect((await call('POST', '/question-templates', { name: 'Mine' }, asUser)).status).toBe(403);
  });

  const userPrompt = (body: Record<string, unknown>): string =>
    (body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')?.content ?? '';

  it("writes each question with the template's prompt, and falls back to the template generator on a bad reply", async () => {
    llm.on((request) => {
      if (request.path !== '/v1/chat/completions') return null;
      const prompt = userPrompt(request.body);
      if (prompt.includes('Redis holds the job queues')) return { raw: 'this is not JSON at all' };
      const title = /TITLE=(.+)/.exec(prompt)?.[1] ?? '?';
      return completion(
        JSON.stringify({ question: `What does ${title} cover?`, answer: 'It is in the passage.' }),
        'writer-v2',
      );
    });
    const template = (
      await call('POST', '/question-templates', {
        name: 'Scenarios',
        kind: 'scenario',
        promptTemplate: 'TITLE={{title}}\nWrite an on-call scenario question about:\n{{passage}}',
      })
    ).body;
    const bank = (await call('POST', '/question-banks', { name: 'LLM written' })).body;
    const queued = await call('POST', `/question-banks/${bank.id}/generate`, {
      templateId: template.id,
      documentIds: [documentIds[1], documentIds[2]],
      count: 2,
    });
    expect(queued.body.generator).toBe('llm');
    const job = await waitForJob(call, queued.body.statusUrl);
    // The whole job on a failure: its state and reason say why.
    expect(job).toMatchObject({ state: 'completed', result: { generator: 'llm', created: 2 } });
    expect(job.result.warnings.join(' ')).toMatch(/the LLM failed \(.*not valid JSON/);

    const requests = llm.requestsTo('/v1/chat/completions');
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect(request.body).toMatchObject({
        model: 'question-writer',
        temperature: 0,
        response_format: { type: 'json_object' },
      });
      expect(userPrompt(request.body)).toMatch(/Write a scenario question that this passage answers/);
      expect(userPrompt(request.body)).toMatch(/Write an on-call scenario question about:\n\S/);
    }

    const items = (await call('GET', `/question-banks/${bank.id}/items`)).body.items;
    const llmItem = items.find((i: Json) => i.generator === 'llm');
    const fallback = items.find((i: Json) => i.generator === 'template');
    expect(llmItem).toMatchObject({
      question: 'What does Onboarding cover?',
      expectedAnswer: 'It is in the passage.',
      source: 'generated',
      expectedSources: [{ documentId: documentIds[2], chunkId: expect.any(String), grade: 1 }],
      metadata: { model: 'writer-v2', promptVersion: 'question-gen-v1' },
    });
    expect(fallback).toMatchObject({
      source: 'generated',
      expectedSources: [{ documentId: documentIds[1], chunkId: expect.any(String), grade: 1 }],
      metadata: { fallback: true, promptVersion: 'template-v1' },
    });
  });

  it('writes out-of-scope questions with the LLM: not in scope, no expected source, the passage noted', async () => {
    llm.on((request) =>
      request.path === '/v1/chat/completions'
        ? completion(JSON.stringify({ question: 'What is the price of the enterprise plan?', answer: '' }))
        : null,
    );
    const template = (
      await call('POST', '/question-templates', {
        name: 'Off topic',
        kind: 'out-of-scope',
        promptTemplate: 'Tempt the search.',
      })
    ).body;
    const bank = (await call('POST', '/question-banks', { name: 'Refusals' })).body;
    const queued = await call('POST', `/question-banks/${bank.id}/generate`, {
      templateId: template.id,
      documentIds: [documentIds[0]],
      count: 1,
    });
    const job = await waitForJob(call, queued.body.statusUrl);
    expect(job.result.created).toBe(1);
    expect(userPrompt(llm.requestsTo('/v1/chat/completions')[0].body)).toMatch(/do NOT answer/);
    const [item] = (await call('GET', `/question-banks/${bank.id}/items`)).body.items;
    expect(item).toMatchObject({
      inScope: false,
      expectedSources: [],
      expectedAnswer: null,
      generator: 'llm',
      metadata: { drawnFromChunkId: expect.any(String) },
    });
  });
});
