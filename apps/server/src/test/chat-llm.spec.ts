import { NOT_FOUND_SENTENCE } from '@lumina/shared';
import { DataSource } from 'typeorm';
import { EMBEDDER } from '../providers/providers.module';
import { readJson } from './helpers/http';
import type { Json } from './helpers/http';
import { ScriptedOpenAiServer, completion } from '@lumina/testing-llm';
import type { RecordedRequest, ScriptedReply } from '@lumina/testing-llm';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { eventOf, eventOrder, eventually, postSse, tokensOf } from './helpers/sse-client';
import type { SseEvent } from './helpers/sse-client';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

/** POST /chat and friends against the scripted OpenAI-compatible server (real HTTP both ways). */
describe('chat with an LLM (scripted OpenAI-compatible server, embedded PGlite)', () => {
  let llm: ScriptedOpenAiServer;
  let server: TestApp;
  let documentIds: string[];

  const isAnswer = (request: RecordedRequest) =>
    request.path === '/v1/chat/completions' && request.body.stream === true;
  const answerRequests = () => llm.requests.filter(isAnswer);
  /** Script the streamed answer (the rewrite and other non-streamed calls keep the default). */
  const answerWith = (reply: ScriptedReply) => llm.on((request) => (isAnswer(request) ? reply : null));
  const chat = (body: unknown, options?: Parameters<typeof postSse>[2]) =>
    postSse(`${server.baseUrl}/chat`, body, options);
  const get = async (path: string) => {
    const response = await fetch(`${server.baseUrl}${path}`);
    return { status: response.status, body: await readJson(response) };
  };
  const passageOf = (events: SseEvent[], marker: number): Json =>
    eventOf(events, 'retrieval').passages.find((p: Json) => p.marker === marker);

  beforeAll(async () => {
    llm = await ScriptedOpenAiServer.start();
    server = await startTestApp(
      testEnv({
        LLM_BASE_URL: llm.baseUrl,
        LLM_MODEL: 'scripted-model',
        LLM_TIMEOUT_MS: '500',
        LLM_MAX_RETRIES: '0',
      }),
    );
    documentIds = await seedDocuments(server.app.get(DataSource), server.app.get(EMBEDDER), RUNBOOK_CORPUS);
  });

  afterEach(() => llm.reset());

  afterAll(async () => {
    await server.close();
    await llm.close();
  });

  it('streams retrieval, tokens, citations and done, in that order, and stores the answer', async () => {
    answerWith({
      stream: ['Promote the standby ', 'replica with pg_ctl promote [1]', '. Then repoint it [2].'],
    });
    const { status, contentType, events } = await chat({
      message: 'How do I promote the standby replica?',
      settings: { topK: 3 },
    });
    expect(status).toBe(200);
    expect(contentType).toMatch(/^text\/event-stream/);
    expect(eventOrder(events)).toEqual(['retrieval', 'token', 'citations', 'done']);

    const retrieval = eventOf(events, 'retrieval');
    expect(retrieval.passages.length).toBeGreaterThanOrEqual(2);
    expect(retrieval.passages.map((p: Json) => p.marker)).toEqual(
      retrieval.passages.map((_: Json, i: number) => i + 1),
    );
    expect(retrieval.passages[0]).toEqual(
      expect.objectContaining({
        title: 'Database runbook',
        headingPath: ['Failover'],
        anchor: 'failover',
        // The default hybrid over the local encoder (dense weight 0): its list adds provenance only.
        provenance: [
          expect.objectContaining({ branch: 'original:bm25', rank: 1 }),
          expect.objectContaining({ branch: 'original:dense' }),
        ],
      }),
    );
    expect(retrieval.standaloneQuery).toBe('How do I promote the standby replica?');
    expect(tokensOf(events)).toBe(
      'Promote the standby replica with pg_ctl promote [1]. Then repoint it [2].',
    );

    // The model saw the passages numbered and fenced, and the question.
    const [request] = answerRequests();
    const prompt = (request.body.messages as Json[]).map((m) => m.content).join('\n');
    expect(prompt).toContain(`<passage number="1" source="Database runbook › Failover">`);
    expect(prompt).toContain('Question: How do I promote the standby replica?');
    expect(request.body.model).toBe('scripted-model');

    const citations = eventOf(events, 'citations');
    expect(citations.droppedMarkers).toEqual([]);
    expect(citations.uncited).toBe(false);
    expect(citations.citations.map((c: Json) => [c.marker, c.chunkId])).toEqual([
      [1, passageOf(events, 1).chunkId],
      [2, passageOf(events, 2).chunkId],
    ]);
    expect(citations.citations[0]).toEqual({
      marker: 1,
      chunkId: passageOf(events, 1).chunkId,
      documentId: documentIds[0],
      title: 'Database runbook',
      headingPath: ['Failover'],
      anchor: 'failover',
      span: passageOf(events, 1).span,
    });

    const done = eventOf(events, 'done');
    expect(done).toEqual(
      expect.objectContaining({
        notFound: false,
        generator: 'llm',
        source: 'documents',
        model: 'scripted-model',
        usage: { promptTokens: 11, completionTokens: 3 },
        conversationId: retrieval.conversationId,
      }),
    );
    expect(done.timings.total).toBeGreaterThanOrEqual(done.timings.search);

    const conversation = await get(`/conversations/${done.conversationId}`);
    expect(conversation.status).toBe(200);
    expect(conversation.body.messages.items.map((m: Json) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
    const stored = conversation.body.messages.items[1];
    expect(stored.id).toBe(done.messageId);
    expect(stored.content).toBe(tokensOf(events));
    expect(stored.citations).toEqual(citations.citations);
    expect(stored.replyToId).toBe(retrieval.userMessageId);

    const trace = await get(`/messages/${done.messageId}/trace`);
    expect(trace.status).toBe(200);
    expect(trace.body).toEqual(
      expect.objectContaining({
        query: 'How do I promote the standby replica?',
        standaloneQuery: 'How do I promote the standby replica?',
        rewrite: 'none',
        promptVersion: 'answer-v1',
        model: 'scripted-model',
        generator: 'llm',
        notFound: false,
        belowThreshold: false,
        usage: { promptTokens: 11, completionTokens: 3 },
      }),
    );
    expect(trace.body.settings.topK).toBe(3);
    expect(trace.body.retrieved.map((r: Json) => r.chunkId)).toEqual(
      retrieval.passages.map((p: Json) => p.chunkId),
    );
    expect(trace.body.retrieved[0].provenance[0]).toEqual(
      expect.objectContaining({ branch: 'original:bm25', rank: 1 }),
    );
  });

  it('drops an invented marker [9], says so in the citations event, the message and the trace', async () => {
    answerWith({ stream: ['Promote the standby [1]', ' and call the vendor [9', '].'] });
    const { events } = await chat({
      message: 'How do I promote the standby replica?',
      settings: { topK: 3 },
    });
    expect(tokensOf(events)).toBe('Promote the standby [1] and call the vendor.');
    const citations = eventOf(events, 'citations');
    expect(citations.droppedMarkers).toEqual([9]);
    expect(citations.citations.map((c: Json) => c.marker)).toEqual([1]);
    const { messageId, conversationId } = eventOf(events, 'done');
    const conversation = await get(`/conversations/${conversationId}`);
    expect(conversation.body.messages.items[1].droppedMarkers).toEqual([9]);
    expect((await get(`/messages/${messageId}/trace`)).body.droppedMarkers).toEqual([9]);
  });

  it('neutralises links the model writes and flags an answer without citations as uncited', async () => {
    answerWith({
      stream: ['See [the runbook](https://evil.example/steal) or ', 'https://evil.example/x for details.'],
    });
    const { events } = await chat({ message: 'How do I promote the standby replica?' });
    const text = tokensOf(events);
    expect(text).toBe('See the runbook or (link removed) for details.');
    expect(text).not.toMatch(/https?:|evil/);
    expect(eventOf(events, 'citations')).toEqual({ citations: [], droppedMarkers: [], uncited: true });
    const { messageId } = eventOf(events, 'done');
    expect((await get(`/messages/${messageId}/trace`)).body.uncited).toBe(true);
  });

  it('flags a reply that starts with the fixed sentence as notFound', async () => {
    answerWith({
      stream: [NOT_FOUND_SENTENCE.slice(0, 20), NOT_FOUND_SENTENCE.slice(20), ' They cover backups [2].'],
    });
    // In scope by its words (the decision lets it through), and the model says the passages lack the answer.
    const { events } = await chat({ message: 'Who approves production access for new engineers?' });
    expect(eventOf(events, 'retrieval').answerability.answerable).toBe(true);
    expect(tokensOf(events).startsWith(NOT_FOUND_SENTENCE)).toBe(true);
    const done = eventOf(events, 'done');
    expect(done.notFound).toBe(true);
    expect(done.generator).toBe('llm');
    expect(eventOf(events, 'citations').uncited).toBe(false);
    expect((await get(`/messages/${done.messageId}/trace`)).body.notFound).toBe(true);
  });

  it('refuses an out-of-scope question by the answerability decision, with no model call at all', async () => {
    const { events } = await chat({
      message: 'How many Kafka partitions should a consumer group have per replica?',
    });
    const retrieval = eventOf(events, 'retrieval');
    expect(retrieval.passages.length).toBeGreaterThan(0);
    expect(retrieval.answerability).toEqual(
      expect.objectContaining({ modelVersion: 'answerability-lex-v1', answerable: false }),
    );
    expect(tokensOf(events)).toBe(NOT_FOUND_SENTENCE);
    const done = eventOf(events, 'done');
    expect(done).toEqual(
      expect.objectContaining({
        notFound: true,
        generator: 'none',
        model: null,
        generalKnowledgeAvailable: true,
      }),
    );
    expect(llm.requestsTo('/v1/chat/completions')).toHaveLength(0);
    const trace = (await get(`/messages/${done.messageId}/trace`)).body;
    expect(trace.answerability).toEqual(retrieval.answerability);
  });

  it('refuses below the threshold with the fixed sentence without calling the LLM', async () => {
    const { events } = await chat({
      // BM25 finds the runbook; no passage is that close to the question in cosine.
      message: 'How do I promote the standby replica?',
      settings: { minScore: 0.99, ranker: 'hybrid' },
    });
    expect(eventOrder(events)).toEqual(['retrieval', 'token', 'citations', 'done']);
    expect(eventOf(events, 'retrieval').belowThreshold).toBe(true);
    expect(tokensOf(events)).toBe(NOT_FOUND_SENTENCE);
    const done = eventOf(events, 'done');
    expect(done).toEqual(
      expect.objectContaining({ notFound: true, generator: 'none', model: null, usage: null }),
    );
    expect(llm.requestsTo('/v1/chat/completions')).toHaveLength(0);
    const trace = (await get(`/messages/${done.messageId}/trace`)).body;
    expect(trace).toEqual(
      expect.objectContaining({ belowThreshold: true, notFound: true, promptVersion: null }),
    );
  });

  it('answers from general knowledge only when asked, after a notFound answer, once', async () => {
    const first = await chat({ message: 'What is the capital of France?', settings: { minScore: 0.99 } });
    const notFound = eventOf(first.events, 'done');
    expect(notFound.notFound).toBe(true);
    expect(llm.requestsTo('/v1/chat/completions')).toHaveLength(0);

    llm.on((request) =>
      isAnswer(request)
        ? { stream: ['Paris is the capital [1] of France, ', 'see https://x.example.'] }
        : null,
    );
    const general = await postSse(`${server.baseUrl}/chat/general`, {
      conversationId: notFound.conversationId,
      messageId: notFound.messageId,
    });
    expect(general.status).toBe(200);
    expect(eventOrder(general.events)).toEqual(['token', 'citations', 'done']);
    expect(tokensOf(general.events)).toBe('Paris is the capital of France, see (link removed).');
    expect(eventOf(general.events, 'citations').citations).toEqual([]);
    const done = eventOf(general.events, 'done');
    expect(done).toEqual(
      expect.objectContaining({ source: 'general-knowledge', generator: 'llm', notFound: false }),
    );
    const [request] = answerRequests();
    const prompt = (request.body.messages as Json[]).map((m) => m.content).join('\n');
    expect(prompt).toContain('What is the capital of France?');
    expect(prompt).not.toContain('<passage');

    const conversation = await get(`/conversations/${notFound.conversationId}`);
    const stored = conversation.body.messages.items.at(-1);
    expect(stored).toEqual(
      expect.objectContaining({
        source: 'general-knowledge',
        citations: [],
        id: done.messageId,
        notFound: false,
      }),
    );
    const trace = (await get(`/messages/${done.messageId}/trace`)).body;
    expect(trace).toEqual(
      expect.objectContaining({
        source: 'general-knowledge',
        retrieved: [],
        settings: null,
        promptVersion: 'general-v1',
      }),
    );

    const again = await postSse(`${server.baseUrl}/chat/general`, {
      conversationId: notFound.conversationId,
      messageId: notFound.messageId,
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already has an answer from general knowledge/);
  });

  it('refuses general knowledge after an answer that found something (409), for a question (400) or an unknown message (404)', async () => {
    answerWith({ stream: ['Promote the standby [1].'] });
    const { events } = await chat({ message: 'How do I promote the standby replica?' });
    const done = eventOf(events, 'done');
    llm.reset();
    const ask = (messageId: string, conversationId = done.conversationId) =>
      postSse(`${server.baseUrl}/chat/general`, { conversationId, messageId });

    const found = await ask(done.messageId);
    expect(found.status).toBe(409);
    expect(found.body.message).toMatch(/only follow an answer that found nothing/);
    const question = await ask(eventOf(events, 'retrieval').userMessageId);
    expect(question.status).toBe(400);
    const unknown = await ask('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    const malformed = await ask('not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toEqual(['messageId must be a message id (a UUID)']);
    expect(llm.requests).toHaveLength(0);
  });

  it('ends with an error event and stores the partial answer as failed when the LLM stalls mid-stream', async () => {
    answerWith({ stream: ['Promote the ', 'standby replica ', 'and never finish'], stallAfter: 2 });
    const started = Date.now();
    const { events } = await chat({ message: 'How do I promote the standby replica?' });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(eventOrder(events)).toEqual(['retrieval', 'token', 'error']);
    const error = eventOf(events, 'error');
    expect(error.code).toBe('llm_timeout');
    expect(error.message).toBe(
      'The language model stopped responding, so the answer is incomplete. Please try again.',
    );
    expect(tokensOf(events)).toBe('Promote the standby replica');

    const conversation = await get(`/conversations/${error.conversationId}`);
    const stored = conversation.body.messages.items[1];
    expect(stored).toEqual(
      expect.objectContaining({
        id: error.messageId,
        status: 'failed',
        content: 'Promote the standby replica',
      }),
    );
    expect(stored.error).toMatch(/did not answer within 500 ms/);
    expect((await get(`/messages/${error.messageId}/trace`)).status).toBe(200);
  });

  it('aborts the upstream LLM request when the client disconnects, and stores the partial as cancelled', async () => {
    answerWith({ stream: Array.from({ length: 40 }, (_, i) => `word${i} `), streamDelayMs: 50 });
    const client = new AbortController();
    let conversationId: string | undefined;
    const { events } = await chat(
      { message: 'How do I promote the standby replica?' },
      {
        signal: client.signal,
        onEvent: (event) => {
          if (event.event === 'retrieval') conversationId = event.data.conversationId;
          if (event.event === 'token') client.abort();
        },
      },
    );
    expect(events.some((e) => e.event === 'done')).toBe(false);
    expect(await eventually(() => llm.aborted.filter(isAnswer).length === 1)).toBe(true);
    const stored = async () =>
      (await get(`/conversations/${conversationId}`)).body.messages.items.find(
        (m: Json) => m.role === 'assistant',
      );
    expect(await eventually(async () => (await stored()) !== undefined)).toBe(true);
    const answer = await stored();
    expect(answer.status).toBe('cancelled');
    expect(answer.content.split(' ').length).toBeLessThan(40);
  });

  it('rewrites a follow-up into a standalone query with the LLM before searching', async () => {
    answerWith({ stream: ['Promote the standby [1].'] });
    const first = await chat({ message: 'How do I promote the standby replica?' });
    const { conversationId } = eventOf(first.events, 'done');
    llm.reset();
    llm.on((request) =>
      request.path === '/v1/chat/completions' && !request.body.stream
        ? completion('When do the nightly database backups run?')
        : null,
    );
    answerWith({ stream: ['At 02:00 UTC [1].'] });
    const { events } = await chat({ conversationId, message: 'And when do backups run?' });
    const retrieval = eventOf(events, 'retrieval');
    expect(retrieval.conversationId).toBe(conversationId);
    expect(retrieval.standaloneQuery).toBe('When do the nightly database backups run?');
    expect(retrieval.passages[0].headingPath).toEqual(['Backups']);
    const rewrite = llm.requests.find((r) => !r.body.stream)!;
    const prompt = (rewrite.body.messages as Json[]).map((m) => m.content).join('\n');
    expect(prompt).toContain('User: How do I promote the standby replica?');
    expect(prompt).toContain('Assistant: Promote the standby [1].');
    expect(prompt).toContain('Last question: And when do backups run?');
    const trace = (await get(`/messages/${eventOf(events, 'done').messageId}/trace`)).body;
    expect(trace.rewrite).toBe('llm');
    expect(trace.query).toBe('And when do backups run?');
  });

  it.each([
    ['an empty message', { message: '' }, 400, /message must not be empty/],
    ['a message of spaces', { message: '   ' }, 400, /only spaces/],
    ['a 20 kB message', { message: 'x'.repeat(20_000) }, 400, /at most 8000 characters/],
    ['no message', {}, 400, /message is required/],
    [
      'an unknown conversation',
      { conversationId: '00000000-0000-4000-8000-000000000000', message: 'hi' },
      404,
      /Conversation 00000000-0000-4000-8000-000000000000 does not exist/,
    ],
    ['a malformed conversation id', { conversationId: 'abc', message: 'hi' }, 400, /conversationId must be/],
    ['malformed settings', { message: 'hi', settings: { topK: 'many' } }, 400, /topK must be an integer/],
    [
      'settings that are not an object',
      { message: 'hi', settings: 'fast' },
      400,
      /settings must be an object/,
    ],
    [
      'an unknown settings key',
      { message: 'hi', settings: { surprise: 1 } },
      400,
      /property settings.surprise should not exist/,
    ],
    ['an unknown field', { message: 'hi', stream: false }, 400, /property stream should not exist/],
  ])('rejects %s before streaming (%#), without calling the LLM', async (_label, body, status, message) => {
    const response = await chat(body);
    expect(response.status).toBe(status);
    expect(response.contentType).toMatch(/application\/json/);
    expect(JSON.stringify(response.body.message)).toMatch(message);
    expect(llm.requests).toHaveLength(0);
  });
});
