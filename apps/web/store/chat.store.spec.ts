import type { ChatDoneEvent, ChatRetrievalEvent, ChatStreamEvent, ConversationMessage } from '@lumina/shared';
import { applyEvent, createChatStore, findAssistant, selectIsBusy, type AssistantTurn } from './chat.store';

function retrieval(): ChatStreamEvent {
  const data: ChatRetrievalEvent = {
    conversationId: 'conv-1',
    userMessageId: 'u-1',
    query: 'q',
    standaloneQuery: 'q',
    rewrite: 'none',
    rewriteReason: null,
    passages: [
      {
        marker: 1,
        chunkId: 'c1',
        documentId: 'd1',
        title: 'Handbook',
        headingPath: ['Leave', 'Parental leave'],
        anchor: 'parental-leave',
        span: { start: 10, end: 36 },
        text: 'Parents get sixteen weeks.',
        score: 0.82,
        similarity: null,
        provenance: [{ branch: 'original:bm25', rank: 1, score: 7.1 }],
      },
    ],
    expansions: null,
    hyde: null,
    adaptive: null,
    belowThreshold: false,
    answerability: null,
    warnings: [],
    timings: { rewrite: 0, search: 12 },
  };
  return { event: 'retrieval', data };
}

const done = (overrides: Partial<ChatDoneEvent> = {}): ChatStreamEvent => ({
  event: 'done',
  data: {
    conversationId: 'conv-1',
    messageId: 'msg-2',
    notFound: false,
    source: 'documents',
    generator: 'llm',
    model: 'm',
    timings: { rewrite: 0, search: 12, generation: 880, firstToken: 300, total: 900 },
    usage: { promptTokens: 30, completionTokens: 10 },
    generalKnowledgeAvailable: false,
    ...overrides,
  },
});

const token = (text: string): ChatStreamEvent => ({ event: 'token', data: { text } });

function assistant(store: ReturnType<typeof createChatStore>, id: string): AssistantTurn {
  const turn = findAssistant(store.getState(), id);
  if (!turn) throw new Error('no such turn');
  return turn;
}

describe('chat store', () => {
  it('adds the question and an assistant turn that starts by retrieving', () => {
    const store = createChatStore(() => 1000);
    const id = store.getState().begin({ question: 'How long is parental leave?', settings: null });
    const [user, answer] = store.getState().turns;

    expect(user).toMatchObject({ role: 'user', text: 'How long is parental leave?', createdAt: 1000 });
    expect(answer).toMatchObject({ id, role: 'assistant', phase: 'retrieving', text: '', kind: 'documents' });
    expect(selectIsBusy(store.getState())).toBe(true);
  });

  it('streams: retrieval, tokens, citations, done — and learns the conversation id', () => {
    const store = createChatStore();
    const id = store.getState().begin({ question: 'q', settings: null });
    const { apply } = store.getState();
    apply(id, retrieval());
    expect(assistant(store, id).phase).toBe('streaming');
    apply(id, token('Sixteen '));
    apply(id, token('weeks [1].'));
    apply(id, { event: 'citations', data: { citations: [], droppedMarkers: [4], uncited: false } });
    apply(id, done());

    const turn = assistant(store, id);
    expect(turn).toMatchObject({
      phase: 'done',
      text: 'Sixteen weeks [1].',
      droppedMarkers: [4],
      messageId: 'msg-2',
      generator: 'llm',
      timings: { total: 900 },
      usage: { promptTokens: 30, completionTokens: 10 },
    });
    expect(turn.retrieval?.passages[0].chunkId).toBe('c1');
    expect(store.getState().conversationId).toBe('conv-1');
    expect(selectIsBusy(store.getState())).toBe(false);
  });

  it('ignores events for a settled turn (a late token after Stop changes nothing)', () => {
    const store = createChatStore();
    const id = store.getState().begin({ question: 'q', settings: null });
    store.getState().apply(id, token('Part'));
    store.getState().stop(id);
    store.getState().apply(id, token(' more'));
    store.getState().fail(id, 'late failure');

    expect(assistant(store, id)).toMatchObject({ phase: 'stopped', text: 'Part', error: null });
  });

  it('records an error event with its sentence, code and the stored partial id', () => {
    const turn = applyEvent(baseTurn(), {
      event: 'error',
      data: {
        message: 'The model took too long.',
        code: 'llm_timeout',
        conversationId: 'c',
        messageId: 'm9',
      },
    });
    expect(turn).toMatchObject({
      phase: 'error',
      error: 'The model took too long.',
      errorCode: 'llm_timeout',
      messageId: 'm9',
    });
  });

  it("keeps the server's word on whether general knowledge can answer a not-found turn", () => {
    const store = createChatStore();
    const offline = store.getState().begin({ question: 'Capital of Mongolia?', settings: null });
    expect(assistant(store, offline).generalKnowledgeAvailable).toBeNull();
    store.getState().apply(offline, done({ notFound: true, generalKnowledgeAvailable: false }));
    expect(assistant(store, offline)).toMatchObject({ notFound: true, generalKnowledgeAvailable: false });
    const online = store.getState().begin({ question: 'Capital of Peru?', settings: null });
    store.getState().apply(online, done({ notFound: true, generalKnowledgeAvailable: true }));
    expect(assistant(store, online).generalKnowledgeAvailable).toBe(true);
  });

  it('labels a general-knowledge turn as such whatever the done event says', () => {
    const store = createChatStore();
    const first = store.getState().begin({ question: 'Capital of Mongolia?', settings: null });
    store.getState().apply(first, done({ notFound: true, messageId: 'm1' }));
    const general = store
      .getState()
      .begin({ question: 'Capital of Mongolia?', settings: null, kind: 'general', replyTo: first });
    store.getState().apply(general, done({ source: 'documents' }));

    expect(store.getState().turns.filter((turn) => turn.role === 'user')).toHaveLength(1);
    expect(assistant(store, general)).toMatchObject({
      kind: 'general',
      source: 'general-knowledge',
      replyTo: first,
    });
  });

  it('discards a failed turn with its question before a retry', () => {
    const store = createChatStore();
    const keep = store.getState().begin({ question: 'first', settings: null });
    store.getState().apply(keep, done());
    const failed = store.getState().begin({ question: 'second', settings: null });
    store.getState().fail(failed, 'nope');
    store.getState().discard(failed);

    expect(store.getState().turns.map((turn) => (turn.role === 'user' ? turn.text : turn.phase))).toEqual([
      'first',
      'done',
    ]);
  });

  it('loads a stored conversation, pairing answers with their questions', () => {
    const store = createChatStore();
    store.getState().load({
      id: 'conv-1',
      title: 'Leave',
      collectionIds: ['col-1'],
      messageCount: 4,
      createdAt: '2025-01-01T00:00:00Z',
      updatedAt: '2025-01-01T00:00:00Z',
      messages: {
        page: 1,
        limit: 50,
        total: 4,
        totalPages: 1,
        items: [
          message({ id: 'u1', role: 'user', content: 'Capital of Mongolia?' }),
          message({
            id: 'a1',
            role: 'assistant',
            content: 'Not in the documents.',
            notFound: true,
            source: 'documents',
          }),
          message({ id: 'a2', role: 'assistant', content: 'Ulaanbaatar.', source: 'general-knowledge' }),
          message({
            id: 'a3',
            role: 'assistant',
            content: 'Half',
            status: 'failed',
            error: 'The model stopped.',
          }),
        ],
      },
    });
    const turns = store.getState().turns;
    expect(store.getState().conversationId).toBe('conv-1');
    expect(turns.map((turn) => turn.role)).toEqual(['user', 'assistant', 'assistant', 'assistant']);
    const [, notFound, general, failed] = turns as [unknown, AssistantTurn, AssistantTurn, AssistantTurn];
    expect(notFound).toMatchObject({
      notFound: true,
      messageId: 'a1',
      question: 'Capital of Mongolia?',
      // History does not say whether general knowledge can answer; the page asks GET /health.
      generalKnowledgeAvailable: null,
    });
    expect(general).toMatchObject({ kind: 'general', replyTo: notFound.id });
    expect(failed).toMatchObject({ phase: 'error', error: 'The model stopped.' });
  });

  it('removes a deleted conversation and clears the screen when it was open', () => {
    const store = createChatStore();
    store.getState().setConversations('ready', [
      { id: 'a', title: 'A', collectionIds: [], messageCount: 2, createdAt: '', updatedAt: '' },
      { id: 'b', title: 'B', collectionIds: [], messageCount: 2, createdAt: '', updatedAt: '' },
    ]);
    const id = store.getState().begin({ question: 'q', settings: null });
    store.getState().apply(id, done({ conversationId: 'b' }));
    store.getState().removeConversation('b');

    expect(store.getState().conversations.map((item) => item.id)).toEqual(['a']);
    expect(store.getState().conversationId).toBeNull();
    expect(store.getState().turns).toEqual([]);
  });
});

function baseTurn(): AssistantTurn {
  const store = createChatStore();
  const id = store.getState().begin({ question: 'q', settings: null });
  return assistant(store, id);
}

function message(overrides: Record<string, unknown>) {
  return {
    id: 'x',
    conversationId: 'conv-1',
    role: 'assistant' as const,
    content: '',
    status: 'complete' as const,
    replyToId: null,
    source: null,
    generator: null,
    notFound: false,
    citations: [],
    droppedMarkers: [],
    uncited: false,
    model: null,
    usage: null,
    error: null,
    hasTrace: false,
    feedback: null,
    createdAt: '2025-01-01T00:00:00Z',
    ...overrides,
  } as ConversationMessage;
}
