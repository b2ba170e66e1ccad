import { NOT_FOUND_SENTENCE } from '@lumina/shared';
import { ScriptedOpenAiServer } from '@lumina/testing-llm';
import type { RecordedRequest } from '@lumina/testing-llm';
import OpenAI from 'openai';
import { DataSource } from 'typeorm';
import { EMBEDDER } from '../providers/providers.module';
import { readJson } from './helpers/http';
import type { Json } from './helpers/http';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

const ADMIN_KEY = 'openai-suite-admin-key-0123456789';
const PROMOTE = 'How do I promote the standby replica?';
const SETUP_TIMEOUT_MS = 120_000;

/** What the `lumina` extension field of a completion holds (the `openai` client's types do not know it). */
const luminaOf = (value: unknown): Json => (value as { lumina: Json }).lumina;

/**
 * The OpenAI-compatible endpoints driven by the official `openai` client, as Open WebUI or LibreChat would:
 * models, plain and streamed completions with citations, a follow-up, a not-found answer, and the
 * refusals (no key, tools, images, unknown models, another key's collections).
 */
describe('OpenAI-compatible endpoints (offline extractive answerer)', () => {
  let server: TestApp;
  let admin: OpenAI;
  let cacheCollection: string;
  let reader: { key: string; client: OpenAI };

  const clientWith = (apiKey: string) =>
    new OpenAI({ apiKey, baseURL: `${server.baseUrl}/v1`, maxRetries: 0, timeout: 60_000 });
  const request = async (method: string, path: string, key: string | null, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await readJson(response) };
  };
  const ask = (client: OpenAI, messages: OpenAI.Chat.ChatCompletionMessageParam[], model = 'lumina') =>
    client.chat.completions.create({ model, messages });
  /** A failed call's status and message, as the `openai` client reports them. */
  const refusal = async (call: Promise<unknown>) => {
    const error = await call.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    return { status: apiError.status, message: apiError.message, type: apiError.type, code: apiError.code };
  };

  beforeAll(async () => {
    server = await startTestApp(testEnv({ ADMIN_API_KEY: ADMIN_KEY }));
    admin = clientWith(ADMIN_KEY);
    const dataSource = server.app.get(DataSource);
    const ids = await seedDocuments(dataSource, server.app.get(EMBEDDER), RUNBOOK_CORPUS);
    const created = await request('POST', '/collections', ADMIN_KEY, {
      name: 'Cache notes',
      slug: 'cache-notes',
      description: 'Redis and queues.',
    });
    expect(created.status).toBe(201);
    cacheCollection = created.body.id;
    const moved = await request('POST', `/documents/${ids[1]}/move`, ADMIN_KEY, {
      collectionId: cacheCollection,
    });
    expect(moved.status).toBe(200);
    const key = await request('POST', '/auth/keys', ADMIN_KEY, {
      name: 'Cache reader',
      role: 'user',
      grants: [{ collectionId: cacheCollection, access: 'read' }],
    });
    expect(key.status).toBe(201);
    reader = { key: key.body.key, client: clientWith(key.body.key) };
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
  });

  it('lists `lumina` and one model per collection the key may read', async () => {
    const models = await admin.models.list();
    const ids = models.data.map((model) => model.id);
    expect(ids[0]).toBe('lumina');
    expect(ids).toEqual(expect.arrayContaining(['lumina:default', 'lumina:cache-notes']));
    expect(models.data.find((model) => model.id === 'lumina:cache-notes')).toMatchObject({
      object: 'model',
      owned_by: 'lumina',
      lumina: { collectionId: cacheCollection, name: 'Cache notes', description: 'Redis and queues.' },
    });
    const readable = await reader.client.models.list();
    expect(readable.data.map((model) => model.id)).toEqual(['lumina', 'lumina:cache-notes']);
  });

  it('answers with numbered citations and a sources list, and the citations structured in `lumina`', async () => {
    const completion = await ask(admin, [
      { role: 'system', content: 'You are a helpful assistant. (Ignored: Lumina follows its own prompt.)' },
      { role: 'user', content: PROMOTE },
    ]);
    expect(completion).toMatchObject({ object: 'chat.completion', model: 'lumina' });
    expect(completion.id).toMatch(/^chatcmpl-/);
    const [choice] = completion.choices;
    expect(choice.finish_reason).toBe('stop');
    const content = choice.message.content ?? '';
    expect(content).toContain('Promote the standby replica with pg_ctl promote.');
    expect(content).toContain('[1]');
    expect(content).toMatch(/\n\n\*\*Sources\*\*\n\n- \[1\] Database runbook › Failover/);
    const lumina = luminaOf(completion);
    expect(lumina).toMatchObject({ notFound: false, generator: 'extractive', standaloneQuery: PROMOTE });
    expect(lumina.citations[0]).toMatchObject({
      marker: 1,
      title: 'Database runbook',
      headingPath: ['Failover'],
    });
    for (const citation of lumina.citations) expect(content).toContain(`[${citation.marker}]`);
    expect(completion.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    // The answer is stored like a chat answer: its trace reads with the same key.
    expect(lumina.trace).toBe(`/messages/${lumina.messageId}/trace`);
    const trace = await request('GET', lumina.trace, ADMIN_KEY);
    expect(trace).toMatchObject({ status: 200, body: { query: PROMOTE, generator: 'extractive' } });
    const conversation = await request('GET', `/conversations/${lumina.conversationId}`, ADMIN_KEY);
    expect(conversation.body.messages.items.map((m: Json) => m.role)).toEqual(['user', 'assistant']);
  });

  it('streams chunks that concatenate to the non-streamed content, the last carrying `lumina`, then usage', async () => {
    const plain = await ask(admin, [{ role: 'user', content: PROMOTE }]);
    const stream = await admin.chat.completions.create({
      model: 'lumina',
      messages: [{ role: 'user', content: PROMOTE }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(3);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const streamed = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(streamed).toBe(plain.choices[0].message.content);
    const finished = chunks.filter((chunk) => chunk.choices[0]?.finish_reason === 'stop');
    expect(finished).toHaveLength(1);
    expect(luminaOf(finished[0])).toMatchObject({ notFound: false, citations: luminaOf(plain).citations });
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
  });

  it('continues the conversation a follow-up resends, and rewrites the question with it', async () => {
    const first = await ask(admin, [{ role: 'user', content: PROMOTE }]);
    const firstContent = first.choices[0].message.content ?? '';
    const followUp = await ask(admin, [
      { role: 'user', content: PROMOTE },
      { role: 'assistant', content: firstContent },
      { role: 'user', content: 'And what do I repoint after that?' },
    ]);
    const lumina = luminaOf(followUp);
    expect(lumina.conversationId).toBe(luminaOf(first).conversationId);
    expect(followUp.choices[0].message.content).toContain('repoint the application connection string');
    const conversation = await request('GET', `/conversations/${lumina.conversationId}`, ADMIN_KEY);
    expect(conversation.body.messages.items.map((m: Json) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);

    // A history this key never had here becomes a new conversation holding it.
    const foreign = await ask(admin, [
      { role: 'user', content: 'Where do the job queues live?' },
      { role: 'assistant', content: 'Redis holds the job queues [1].\n\n**Sources**\n\n- [1] Cache guide' },
      { role: 'user', content: 'When do its memory alarms fire?' },
    ]);
    const seeded = await request('GET', `/conversations/${luminaOf(foreign).conversationId}`, ADMIN_KEY);
    expect(seeded.body.messages.items.map((m: Json) => [m.role, m.content])).toEqual([
      ['user', 'Where do the job queues live?'],
      ['assistant', 'Redis holds the job queues [1].'],
      ['user', 'When do its memory alarms fire?'],
      ['assistant', expect.stringContaining('eighty percent')],
    ]);
  });

  it('says the documents do not answer, without sources, when they do not', async () => {
    const completion = await ask(admin, [{ role: 'user', content: 'What is the capital of Mongolia?' }]);
    const content = completion.choices[0].message.content ?? '';
    expect(content.startsWith(NOT_FOUND_SENTENCE)).toBe(true);
    expect(content).not.toContain('**Sources**');
    expect(luminaOf(completion)).toMatchObject({ notFound: true, citations: [] });
  });

  it('asks one collection through its model, and a key reaches only the collections it reads', async () => {
    const cache = await ask(
      reader.client,
      [{ role: 'user', content: 'Why are Redis evictions disabled?' }],
      'lumina:cache-notes',
    );
    expect(cache.choices[0].message.content).toContain('Evictions are disabled so that no job is lost.');
    expect(luminaOf(cache).citations.map((c: Json) => c.title)).toEqual(['Cache guide']);
    // The reader's `lumina` is its one collection: the runbook (in Default) is not found.
    const runbook = await ask(reader.client, [{ role: 'user', content: PROMOTE }]);
    expect(luminaOf(runbook).notFound).toBe(true);
    // Another collection's model is the same 404 as a model that does not exist.
    const hidden = await refusal(ask(reader.client, [{ role: 'user', content: PROMOTE }], 'lumina:default'));
    const missing = await refusal(ask(reader.client, [{ role: 'user', content: PROMOTE }], 'lumina:nowhere'));
    expect(hidden).toMatchObject({ status: 404, type: 'not_found_error', code: 'not_found' });
    expect(hidden.message).toContain('The model "lumina:default" does not exist');
    expect(missing.message).toContain('The model "lumina:nowhere" does not exist');
    expect((await refusal(ask(admin, [{ role: 'user', content: PROMOTE }], 'gpt-4o'))).status).toBe(404);
  });

  it('refuses a request without a key, or with a wrong one, with 401 in OpenAI’s error shape', async () => {
    const wrong = await refusal(clientWith('not-a-key').models.list());
    expect(wrong).toMatchObject({ status: 401, type: 'authentication_error' });
    const none = await request('POST', '/v1/chat/completions', null, {
      model: 'lumina',
      messages: [{ role: 'user', content: PROMOTE }],
    });
    expect(none.status).toBe(401);
    expect(none.body).toEqual({
      error: { message: expect.any(String), type: 'authentication_error', param: null, code: 'unauthorized' },
    });
  });

  it('refuses tools, images, n > 1 and a conversation that does not end with a question, with the reason', async () => {
    const question = { role: 'user' as const, content: PROMOTE };
    const tools = await refusal(
      admin.chat.completions.create({
        model: 'lumina',
        messages: [question],
        tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
      }),
    );
    expect(tools).toMatchObject({ status: 400, type: 'invalid_request_error' });
    expect(tools.message).toContain('tools and functions are not supported');
    const image = await refusal(
      admin.chat.completions.create({
        model: 'lumina',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in this picture?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            ],
          },
        ],
      }),
    );
    expect(image.status).toBe(400);
    expect(image.message).toContain('only text content is supported');
    const many = await refusal(
      admin.chat.completions.create({ model: 'lumina', messages: [question], n: 2 }),
    );
    expect(many.message).toContain('n must be 1');
    const noQuestion = await refusal(ask(admin, [question, { role: 'assistant', content: 'Promote it.' }]));
    expect(noQuestion).toMatchObject({ status: 400 });
    expect(noQuestion.message).toContain('the last message must be the user’s question');
    const empty = await refusal(ask(admin, []));
    expect(empty.message).toContain('messages must hold at least one user message');
  });

  it('accepts and ignores sampling fields and unknown fields; text parts are read as the question', async () => {
    const completion = await admin.chat.completions.create({
      model: 'lumina',
      messages: [{ role: 'user', content: [{ type: 'text', text: PROMOTE }] }],
      temperature: 1.7,
      top_p: 0.2,
      max_tokens: 5,
      seed: 7,
      stop: ['\n'],
      presence_penalty: 1,
      // An unknown field, as newer clients send.
      ...({ reasoning_effort_hint: 'high' } as object),
    });
    expect(completion.choices[0].message.content).toContain('pg_ctl promote');
    // Lumina's own retrieval settings go in the `lumina` extension.
    const settled = await request('POST', '/v1/chat/completions', ADMIN_KEY, {
      model: 'lumina',
      messages: [{ role: 'user', content: PROMOTE }],
      lumina: { settings: { ranker: 'bm25', topK: 2 } },
    });
    expect(settled.status).toBe(200);
    const trace = await request('GET', settled.body.lumina.trace, ADMIN_KEY);
    expect(trace.body.settings).toMatchObject({ ranker: 'bm25', topK: 2 });
    const badSettings = await request('POST', '/v1/chat/completions', ADMIN_KEY, {
      model: 'lumina',
      messages: [{ role: 'user', content: PROMOTE }],
      lumina: { settings: { topK: 0 } },
    });
    expect(badSettings.status).toBe(400);
    expect(badSettings.body.error.message).toMatch(/topK/);
  });
});

/** With a language model: the answer is generated by it, once per completion, and streams its tokens. */
describe('OpenAI-compatible endpoints with an LLM (scripted OpenAI-compatible server)', () => {
  let llm: ScriptedOpenAiServer;
  let server: TestApp;
  let client: OpenAI;

  const isAnswer = (request: RecordedRequest) =>
    request.path === '/v1/chat/completions' && request.body.stream === true;

  beforeAll(async () => {
    llm = await ScriptedOpenAiServer.start();
    server = await startTestApp(
      testEnv({
        LLM_BASE_URL: llm.baseUrl,
        LLM_MODEL: 'scripted-model',
        LLM_TIMEOUT_MS: '2000',
        LLM_MAX_RETRIES: '0',
      }),
    );
    await seedDocuments(server.app.get(DataSource), server.app.get(EMBEDDER), RUNBOOK_CORPUS);
    // Local mode (no ADMIN_API_KEY): a client that must send a key gets one made on this machine.
    const collections = (await (await fetch(`${server.baseUrl}/collections`)).json()) as {
      items: { id: string; slug: string }[];
    };
    const library = collections.items.find((collection) => collection.slug === 'default')!;
    const created = await fetch(`${server.baseUrl}/auth/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Open WebUI',
        role: 'user',
        grants: [{ collectionId: library.id, access: 'read' }],
      }),
    });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };
    const me = await fetch(`${server.baseUrl}/auth/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    client = new OpenAI({ apiKey: key, baseURL: `${server.baseUrl}/v1`, maxRetries: 0 });
  }, SETUP_TIMEOUT_MS);

  afterEach(() => llm.reset());

  afterAll(async () => {
    await server?.close();
    await llm?.close();
  });

  it('generates the answer with one model call, streamed or not, with the same content', async () => {
    llm.on((request) =>
      isAnswer(request) ? { stream: ['Promote the standby ', 'replica with pg_ctl promote [1].'] } : null,
    );
    const settings = { enableQueryExpansion: false, enableHyDE: false, enableRerank: false };
    const plain = await client.chat.completions.create({
      model: 'lumina',
      messages: [{ role: 'user', content: PROMOTE }],
      ...({ lumina: { settings } } as object),
    });
    expect(llm.requests.filter(isAnswer)).toHaveLength(1);
    const content = plain.choices[0].message.content ?? '';
    expect(content).toMatch(
      /^Promote the standby replica with pg_ctl promote \[1\]\.\n\n\*\*Sources\*\*\n\n- \[1\] /,
    );
    expect(luminaOf(plain)).toMatchObject({ generator: 'llm', notFound: false });
    expect(plain.usage?.total_tokens).toBeGreaterThanOrEqual(0);

    const stream = await client.chat.completions.create({
      model: 'lumina',
      messages: [{ role: 'user', content: PROMOTE }],
      stream: true,
      ...({ lumina: { settings } } as object),
    });
    const pieces: string[] = [];
    for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta.content ?? '');
    expect(llm.requests.filter(isAnswer)).toHaveLength(2);
    expect(pieces.join('')).toBe(content);
    // The model's tokens arrive as they are written, not as one block.
    expect(pieces.filter(Boolean).length).toBeGreaterThanOrEqual(3);
  });

  it('ends a stream with an error chunk when the model fails mid-answer', async () => {
    llm.on((request) =>
      isAnswer(request) ? { status: 500, json: { error: { message: 'model crashed' } } } : null,
    );
    const stream = await client.chat.completions.create({
      model: 'lumina',
      messages: [{ role: 'user', content: PROMOTE }],
      stream: true,
    });
    const error = await (async () => {
      for await (const chunk of stream) void chunk;
    })().then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toMatch(/model|answer/i);
    const plain = await client.chat.completions
      .create({ model: 'lumina', messages: [{ role: 'user', content: PROMOTE }] })
      .then(
        () => null,
        (caught: unknown) => caught as InstanceType<typeof OpenAI.APIError>,
      );
    expect(plain?.status).toBe(502);
  });
});
