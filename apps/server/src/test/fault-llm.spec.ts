import { DataSource } from 'typeorm';
import { EMBEDDER } from '../providers/providers.module';
import { readJson } from './helpers/http';
import type { Json } from './helpers/http';
import { freePort } from '../common/net/free-port';
import { ScriptedOpenAiServer, completion } from '@lumina/testing-llm';
import type { RecordedRequest, ScriptedReply } from '@lumina/testing-llm';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { eventOf, eventOrder, postSse, tokensOf } from './helpers/sse-client';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

const LLM_TIMEOUT_MS = 800;
const QUESTION = 'How do I promote the standby replica?';
/** Every LLM-backed search branch on, and the listwise LLM reranker. */
const ALL_LLM_SETTINGS = { enableQueryExpansion: true, enableHyDE: true, enableRerank: true };

const llmEnv = (baseUrl: string) =>
  testEnv({
    LLM_BASE_URL: baseUrl,
    LLM_MODEL: 'scripted-model',
    LLM_TIMEOUT_MS: String(LLM_TIMEOUT_MS),
    LLM_MAX_RETRIES: '1',
  });

async function post(
  app: TestApp,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Json; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${app.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await readJson(response), ms: performance.now() - started };
}

async function chat(app: TestApp, body: unknown) {
  const started = performance.now();
  const response = await postSse(`${app.baseUrl}/chat`, body);
  return { ...response, ms: performance.now() - started };
}

/** The stored assistant message of a chat that ended with an error event. */
async function storedAnswer(app: TestApp, events: Json[]): Promise<Json> {
  const error = eventOf(events, 'error');
  const response = await fetch(`${app.baseUrl}/conversations/${error.conversationId}`);
  const conversation = await readJson(response);
  return conversation.messages.items.find((message: Json) => message.id === error.messageId);
}

async function expectHealthy(app: TestApp): Promise<void> {
  const response = await fetch(`${app.baseUrl}/health`);
  expect(response.status).toBe(200);
  expect(await readJson(response)).toMatchObject({ status: 'ok', llm: { configured: true } });
}

const branchesOf = (body: Json): Set<string> =>
  new Set(body.results.flatMap((r: Json) => r.provenance.map((p: Json) => p.branch)));

/** Nothing listens on the LLM's port: every call is refused at once. */
describe('LLM endpoint down (connection refused)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp(llmEnv(`http://127.0.0.1:${await freePort()}/v1`));
    await seedDocuments(app.app.get(DataSource), app.app.get(EMBEDDER), RUNBOOK_CORPUS);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('search answers 200 from the original query, with one warning per LLM step, promptly', async () => {
    const { status, body, ms } = await post(app, '/rag/search', {
      query: 'what do we do when the main database goes down',
      settings: ALL_LLM_SETTINGS,
    });
    expect(status).toBe(200);
    expect(ms).toBeLessThan(5000);
    // Each step's refused call, or on a loaded machine its deadline running out first (seen under two busy
    // loops on a cold server): either way the step is dropped with one warning saying which.
    expect(body.warnings).toEqual([
      expect.stringMatching(
        /^Query expansion failed: (could not reach the chat endpoint|query expansion took longer than \d+ ms)/,
      ),
      expect.stringMatching(/^HyDE failed: (could not reach the chat endpoint|HyDE took longer than \d+ ms)/),
      expect.stringMatching(/could not reach the chat endpoint|rerank took longer than \d+ ms/),
    ]);
    expect(body.warnings[2]).toMatch(/rerank/i);
    expect(body.expansions).toBeNull();
    expect(body.hyde).toBeNull();
    expect(branchesOf(body)).toEqual(new Set(['original:bm25', 'original:dense']));
    expect(body.results[0].documentTitle).toBe('Database runbook');
  });

  it('chat ends with an llm_failed error event saying the model could not be reached, and stores why', async () => {
    const { status, events, ms } = await chat(app, { message: QUESTION });
    expect(status).toBe(200);
    expect(ms).toBeLessThan(5000);
    expect(eventOrder(events)).toEqual(['retrieval', 'error']);
    expect(eventOf(events, 'error')).toMatchObject({
      code: 'llm_failed',
      message: expect.stringMatching(/language model could not be reached/),
    });
    const stored = await storedAnswer(app, events);
    expect(stored).toMatchObject({ status: 'failed', content: '' });
    expect(stored.error).toMatch(/could not reach the chat endpoint/);
  });

  it('stays healthy: /health answers 200 and reports the model', async () => {
    await expectHealthy(app);
  });
});

/** The scripted endpoint answers, but too slowly or with something that is not an answer. */
describe('LLM endpoint slow or answering garbage', () => {
  let llm: ScriptedOpenAiServer;
  let app: TestApp;

  const isStreamedAnswer = (request: RecordedRequest) =>
    request.path === '/v1/chat/completions' && request.body.stream === true;
  /** Every chat completion (search steps, rerank, the streamed answer) gets `reply`. */
  const everyCall = (reply: ScriptedReply) =>
    llm.on((request) => (request.path === '/v1/chat/completions' ? reply : null));

  beforeAll(async () => {
    llm = await ScriptedOpenAiServer.start();
    app = await startTestApp(llmEnv(llm.baseUrl));
    await seedDocuments(app.app.get(DataSource), app.app.get(EMBEDDER), RUNBOOK_CORPUS);
  });

  afterEach(() => llm.reset());

  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  it('search: a model that never answers costs one deadline, not more, and the request still answers', async () => {
    everyCall({ ...completion('too late'), delayMs: 10_000 });
    const { status, body, ms } = await post(app, '/rag/search', {
      query: 'what do we do when the main database goes down',
      settings: ALL_LLM_SETTINGS,
    });
    expect(status).toBe(200);
    // Expansion and HyDE run together (one deadline), then the rerank (a second one); no retry after a timeout.
    expect(ms).toBeLessThan(2 * LLM_TIMEOUT_MS + 1500);
    expect(body.warnings).toHaveLength(3);
    for (const warning of body.warnings) expect(warning).toMatch(new RegExp(`${LLM_TIMEOUT_MS} ms`));
    expect(branchesOf(body)).toEqual(new Set(['original:bm25', 'original:dense']));
  });

  it.each([
    ['a body that is not JSON', { raw: '<html>502 Bad Gateway</html>' }],
    ['JSON of the wrong shape', { json: { message: 'hello' } }],
    ['no choices', { json: { id: 'x', object: 'chat.completion', choices: [] } }],
  ])('search: %s from every LLM step becomes warnings over the remaining branches', async (_label, reply) => {
    everyCall(reply);
    const { status, body, ms } = await post(app, '/rag/search', {
      query: 'what do we do when the main database goes down',
      settings: ALL_LLM_SETTINGS,
    });
    expect(status).toBe(200);
    expect(ms).toBeLessThan(5000);
    expect(body.warnings).toHaveLength(3);
    expect(body.warnings[0]).toMatch(/^Query expansion failed: /);
    expect(body.warnings[1]).toMatch(/^HyDE failed: /);
    expect(body.expansions).toBeNull();
    expect(body.hyde).toBeNull();
    expect(body.results[0].documentTitle).toBe('Database runbook');
  });

  it('chat: a model that never sends a byte ends in an llm_timeout error within the deadline', async () => {
    llm.on((request) => (isStreamedAnswer(request) ? { stream: ['never'], delayMs: 10_000 } : null));
    const { status, events, ms } = await chat(app, { message: QUESTION });
    expect(status).toBe(200);
    expect(ms).toBeLessThan(LLM_TIMEOUT_MS + 2500);
    expect(eventOrder(events)).toEqual(['retrieval', 'error']);
    expect(eventOf(events, 'error')).toMatchObject({
      code: 'llm_timeout',
      message: expect.stringMatching(/stopped responding/),
    });
    const stored = await storedAnswer(app, events);
    expect(stored).toMatchObject({ status: 'failed' });
    expect(stored.error).toMatch(new RegExp(`did not answer within ${LLM_TIMEOUT_MS} ms`));
  });

  it.each([
    ['a body that is not JSON', { raw: '<html>502 Bad Gateway</html>' }],
    ['events that are not JSON', { raw: 'data: {"choices": [oops\n\n' }],
    ['events of the wrong shape', { raw: 'data: {"message":"hello"}\n\ndata: [DONE]\n\n' }],
    [
      'events without choices',
      { raw: 'data: {"id":"x","object":"chat.completion.chunk","choices":[]}\n\ndata: [DONE]\n\n' },
    ],
  ])('chat: %s ends in an llm_failed error saying why, not an empty answer', async (_label, reply) => {
    llm.on((request) => (isStreamedAnswer(request) ? reply : null));
    const { status, events, ms } = await chat(app, { message: QUESTION });
    expect(status).toBe(200);
    expect(ms).toBeLessThan(5000);
    expect(eventOrder(events)).toEqual(['retrieval', 'error']);
    expect(eventOf(events, 'error')).toMatchObject({
      code: 'llm_failed',
      message: expect.stringMatching(/language model could not be reached or returned an error/),
    });
    const stored = await storedAnswer(app, events);
    expect(stored).toMatchObject({ status: 'failed', content: '' });
    expect(stored.error).toMatch(/unreadable answer|no answer/);
  });

  it('stays healthy, and answers normally once the model does', async () => {
    await expectHealthy(app);
    llm.on((request) =>
      isStreamedAnswer(request) ? { stream: ['Promote the standby replica with pg_ctl promote [1].'] } : null,
    );
    const { events } = await chat(app, { message: QUESTION });
    expect(eventOrder(events)).toEqual(['retrieval', 'token', 'citations', 'done']);
    expect(tokensOf(events)).toBe('Promote the standby replica with pg_ctl promote [1].');
  });
});
