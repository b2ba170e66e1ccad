import { resolveSettings } from '@lumina/shared';
import type { ChatAskRequest, ChatStreamEvent } from '@lumina/shared';
import { ApiError } from '../lib/api-errors';
import { APP_ERROR_MESSAGE, createChatSession, CUT_OFF_MESSAGE } from './chat-session';
import { createChatStore, findAssistant } from './chat.store';

type Script = (signal: AbortSignal) => AsyncGenerator<ChatStreamEvent>;

function fakeApi(scripts: Script[]) {
  const requests: { kind: 'chat' | 'general'; body: unknown; signal: AbortSignal }[] = [];
  const next = (kind: 'chat' | 'general', body: unknown, signal: AbortSignal) => {
    requests.push({ kind, body, signal });
    const script = scripts.shift();
    if (!script) throw new Error('no scripted answer left');
    return script(signal);
  };
  return {
    requests,
    api: {
      streamChat: (request: ChatAskRequest, { signal }: { signal?: AbortSignal } = {}) =>
        next('chat', request, signal!),
      streamGeneralAnswer: (input: unknown, { signal }: { signal?: AbortSignal } = {}) =>
        next('general', input, signal!),
    },
  };
}

const done = (notFound = false, messageId = 'm1'): ChatStreamEvent => ({
  event: 'done',
  data: {
    conversationId: 'c1',
    messageId,
    notFound,
    source: 'documents',
    generator: 'llm',
    generalKnowledgeAvailable: false,
    model: null,
    timings: { rewrite: 0, search: 1, generation: 1, firstToken: null, total: 2 },
    usage: null,
  },
});

const token = (text: string): ChatStreamEvent => ({ event: 'token', data: { text } });

const retrieval = (userMessageId: string): ChatStreamEvent => ({
  event: 'retrieval',
  data: {
    conversationId: 'c1',
    userMessageId,
    query: 'q',
    standaloneQuery: 'q',
    rewrite: 'none',
    rewriteReason: null,
    passages: [],
    expansions: null,
    hyde: null,
    adaptive: null,
    belowThreshold: false,
    answerability: null,
    warnings: [],
    timings: { rewrite: 0, search: 1 },
  },
});

async function* events(...list: ChatStreamEvent[]): AsyncGenerator<ChatStreamEvent> {
  for (const event of list) yield event;
}

describe('chat session', () => {
  it('sends the merged settings and the conversation, and streams the answer into the store', async () => {
    const store = createChatStore();
    const { api, requests } = fakeApi([
      () => events(token('A'), token('B'), done()),
      () => events(token('C'), done(false, 'm2')),
    ]);
    const settled: string[] = [];
    const session = createChatSession({
      api,
      store,
      settings: () => resolveSettings({ enableHyDE: true }),
      onSettled: (id) => settled.push(id),
    });

    const first = session.ask('first question');
    await first.done;
    const second = session.ask('follow-up');
    await second.done;

    expect(requests.map((request) => request.body)).toEqual([
      {
        message: 'first question',
        settings: resolveSettings({ enableHyDE: true }),
        conversationId: undefined,
      },
      { message: 'follow-up', settings: resolveSettings({ enableHyDE: true }), conversationId: 'c1' },
    ]);
    expect(findAssistant(store.getState(), first.id)).toMatchObject({
      phase: 'done',
      text: 'AB',
      messageId: 'm1',
    });
    expect(findAssistant(store.getState(), second.id)).toMatchObject({ phase: 'done', text: 'C' });
    expect(settled).toEqual([first.id, second.id]);
  });

  it('sends the picked collections with each question, and every live one for "All" in an open conversation', async () => {
    const store = createChatStore();
    const { api, requests } = fakeApi([
      () => events(token('A'), done()),
      () => events(token('B'), done(false, 'm2')),
      () => events(token('C'), done(false, 'm3')),
    ]);
    let picked: string[] = ['col-runbooks', 'col-handbook'];
    const session = createChatSession({
      api,
      store,
      settings: () => resolveSettings(),
      collectionIds: () => picked,
      everyCollectionId: () => ['col-runbooks', 'col-handbook', 'col-policies'],
    });

    await session.ask('first').done;
    picked = [];
    await session.ask('follow-up').done;
    picked = ['col-handbook'];
    await session.ask('narrower').done;

    const bodies = requests.map((request) => request.body as ChatAskRequest);
    expect(bodies[0]).toMatchObject({
      conversationId: undefined,
      collectionIds: ['col-runbooks', 'col-handbook'],
    });
    // "All" in an open conversation names every live collection: without ids the server would search
    // the follow-up in the two collections the conversation remembers.
    expect(bodies[1]).toMatchObject({
      conversationId: 'c1',
      collectionIds: ['col-runbooks', 'col-handbook', 'col-policies'],
    });
    expect(bodies[2]).toMatchObject({ conversationId: 'c1', collectionIds: ['col-handbook'] });
  });

  it('sends no collectionIds for "All" in a new conversation, nor in an open one while the list is unknown', async () => {
    const store = createChatStore();
    const { api, requests } = fakeApi([
      () => events(token('A'), done()),
      () => events(token('B'), done(false, 'm2')),
      () => events(token('C'), done(false, 'm3')),
    ]);
    let every: string[] | undefined = ['col-runbooks', 'col-handbook'];
    const session = createChatSession({
      api,
      store,
      settings: () => resolveSettings(),
      collectionIds: () => [],
      everyCollectionId: () => every,
    });

    await session.ask('first').done;
    every = undefined;
    await session.ask('follow-up').done;
    store.getState().newConversation();
    every = ['col-runbooks'];
    await session.ask('a new conversation').done;

    const bodies = requests.map((request) => request.body as ChatAskRequest);
    expect(bodies[0]).toEqual({ message: 'first', settings: resolveSettings(), conversationId: undefined });
    expect(bodies[1]).toEqual({ message: 'follow-up', settings: resolveSettings(), conversationId: 'c1' });
    expect(bodies[2]).toEqual({
      message: 'a new conversation',
      settings: resolveSettings(),
      conversationId: undefined,
    });
  });

  it('names every live collection when "All" regenerates an answer in the conversation', async () => {
    const store = createChatStore();
    const { api, requests } = fakeApi([
      () => events(retrieval('q1'), token('A'), done()),
      () => events(retrieval('q2'), token('B'), done(false, 'm2')),
    ]);
    let picked: string[] = ['col-runbooks'];
    const session = createChatSession({
      api,
      store,
      settings: () => resolveSettings(),
      collectionIds: () => picked,
      everyCollectionId: () => ['col-runbooks', 'col-handbook'],
    });

    const first = session.ask('q');
    await first.done;
    picked = [];
    await session.regenerate(first.id)!.done;

    const bodies = requests.map((request) => request.body as ChatAskRequest);
    expect(bodies[1]).toMatchObject({
      conversationId: 'c1',
      replaceMessageId: 'q1',
      collectionIds: ['col-runbooks', 'col-handbook'],
    });
  });

  it('stop() aborts the request and keeps the partial answer as stopped', async () => {
    const store = createChatStore();
    let release: () => void = () => undefined;
    const { api, requests } = fakeApi([
      async function* (signal) {
        yield token('Partial');
        await new Promise<void>((resolve) => {
          release = resolve;
          signal.addEventListener('abort', () => resolve());
        });
        if (signal.aborted) throw new DOMException('aborted', 'AbortError');
        yield token(' never');
      },
    ]);
    const session = createChatSession({ api, store, settings: () => resolveSettings() });
    const { id, done: finished } = session.ask('q');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(session.isRunning()).toBe(true);
    session.stop();
    release();
    await finished;

    expect(requests[0].signal.aborted).toBe(true);
    expect(findAssistant(store.getState(), id)).toMatchObject({ phase: 'stopped', text: 'Partial' });
    expect(session.isRunning()).toBe(false);
  });

  it('reports a stream that ends without done or error as cut off', async () => {
    const store = createChatStore();
    const { api } = fakeApi([() => events(token('Half'))]);
    const session = createChatSession({ api, store, settings: () => resolveSettings() });
    const { id, done: finished } = session.ask('q');
    await finished;
    expect(findAssistant(store.getState(), id)).toMatchObject({
      phase: 'error',
      error: CUT_OFF_MESSAGE,
      text: 'Half',
    });
  });

  it('shows an API error sentence, and a retry sends the question again in place of the failed turn', async () => {
    const store = createChatStore();
    const { api, requests } = fakeApi([
      // eslint-disable-next-line require-yield
      async function* () {
        throw new ApiError('unavailable', 'The server is busy. Try again in a moment.', 'POST /chat → 503');
      },
      () => events(token('OK'), done()),
    ]);
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const session = createChatSession({ api, store, settings: () => resolveSettings() });
    const failed = session.ask('q');
    await failed.done;
    expect(findAssistant(store.getState(), failed.id)).toMatchObject({
      phase: 'error',
      error: 'The server is busy. Try again in a moment.',
      errorCode: 'unavailable',
    });

    const retried = session.retry(failed.id);
    await retried?.done;
    expect(requests).toHaveLength(2);
    expect(
      store.getState().turns.map((turn) => (turn.role === 'user' ? `user:${turn.text}` : turn.phase)),
    ).toEqual(['user:q', 'done']);
  });

  it('turns an unexpected failure into a plain sentence', async () => {
    const store = createChatStore();
    const { api } = fakeApi([
      // eslint-disable-next-line require-yield
      async function* () {
        throw new TypeError('boom');
      },
    ]);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const session = createChatSession({ api, store, settings: () => resolveSettings() });
    const { id, done: finished } = session.ask('q');
    await finished;
    expect(findAssistant(store.getState(), id)?.error).toBe(APP_ERROR_MESSAGE);
  });

  it('asks for a general-knowledge answer only after a not-found answer with ids', async () => {
    const store = createChatStore();
    const { api, requests } = fakeApi([
      () => events(token('Not in the documents.'), done(true, 'nf-1')),
      () => events(token('Ulaanbaatar.'), done(false, 'gk-1')),
    ]);
    const session = createChatSession({ api, store, settings: () => resolveSettings() });
    const refusal = session.ask('Capital of Mongolia?');
    await refusal.done;

    const general = session.answerFromGeneralKnowledge(refusal.id);
    await general?.done;
    expect(requests[1]).toMatchObject({ kind: 'general', body: { conversationId: 'c1', messageId: 'nf-1' } });
    expect(findAssistant(store.getState(), general!.id)).toMatchObject({
      kind: 'general',
      source: 'general-knowledge',
      text: 'Ulaanbaatar.',
      replyTo: refusal.id,
    });
    expect(session.answerFromGeneralKnowledge('unknown-turn')).toBeNull();
  });

  it('regenerates the last answer and edits a question in place, naming the stored question it replaces', async () => {
    const store = createChatStore();
    const { api, requests } = fakeApi([
      () => events(retrieval('q1'), token('one'), done(false, 'a1')),
      () => events(retrieval('q2'), token('two'), done(false, 'a2')),
      () => events(retrieval('q3'), token('two again'), done(false, 'a3')),
      () => events(retrieval('q4'), token('edited'), done(false, 'a4')),
    ]);
    const session = createChatSession({ api, store, settings: () => resolveSettings() });
    await session.ask('first').done;
    const second = session.ask('second');
    await second.done;

    await session.regenerate(second.id)!.done;
    expect(requests[2].body).toMatchObject({
      message: 'second',
      conversationId: 'c1',
      replaceMessageId: 'q2',
    });
    expect(store.getState().turns.map((turn) => turn.text)).toEqual(['first', 'one', 'second', 'two again']);

    const firstQuestion = store.getState().turns[0];
    await session.resend(firstQuestion.id, '  first, edited ')!.done;
    expect(requests[3].body).toMatchObject({
      message: 'first, edited',
      conversationId: 'c1',
      replaceMessageId: 'q1',
    });
    expect(store.getState().turns.map((turn) => turn.text)).toEqual(['first, edited', 'edited']);
    expect(store.getState().turns[0]).toMatchObject({ role: 'user', messageId: 'q4' });
  });

  it('does not resend a question the server has not stored (no id yet) or an empty edit', async () => {
    const store = createChatStore();
    const { api, requests } = fakeApi([() => events(token('x'), done())]);
    const session = createChatSession({ api, store, settings: () => resolveSettings() });
    const asked = session.ask('no retrieval event');
    await asked.done;
    expect(session.regenerate(asked.id)).toBeNull();
    expect(session.resend(store.getState().turns[0].id, '   ')).toBeNull();
    expect(requests).toHaveLength(1);
  });
});
