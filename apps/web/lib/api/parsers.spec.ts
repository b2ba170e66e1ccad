/** The readers of the resource files, each against answers old and new servers send. */
import { resolveSettings } from '@lumina/shared';
import type { ChatStreamEvent } from '@lumina/shared';
import { isChatEventName, parseChatEvent, parseConversationDetail, parseTrace } from './chat';
import { createApiClient } from '../api-client';
import { ApiError } from '../api-errors';
import { parseDocumentEvent } from './documents';
import { parseEvalRun } from './evaluations';
import { parseActiveReranker, parseRerankerModel } from './rerankers';
import { parseSearchResponse } from './search';

const verdict = {
  modelVersion: 'answerability-v1',
  score: 0.18,
  threshold: 0.42,
  answerable: false,
  features: { salientInCorpus: 0.2, lexicalRatio: 0.1 },
  contributions: { salientInCorpus: -1.4, lexicalRatio: -0.3 },
  terms: [
    { term: 'mongolia', df: 0, idf: 9.1 },
    { term: 'capital', df: 3, idf: 4.2 },
  ],
};

const adaptive = {
  policyVersion: 'expansion-policy-v1',
  confidence: 0.91,
  threshold: 0.8,
  skipped: ['expansion', 'hyde'],
  ran: [],
  features: { topScore: 0.7 },
  contributions: { topScore: 1.2 },
};

const citation = (marker: number, chunkId: string) => ({
  marker,
  chunkId,
  documentId: 'd1',
  title: 'Handbook',
  headingPath: ['Leave'],
  anchor: 'leave',
  span: { start: 100 * marker, end: 100 * marker + 40 },
});

const passage = (marker: number, chunkId: string) => ({
  ...citation(marker, chunkId),
  text: `Passage ${marker}`,
  score: 1 / marker,
  similarity: null,
  provenance: [{ branch: 'variant-1:bm25', rank: marker, score: 2 }],
});

const retrieval = {
  conversationId: 'c1',
  userMessageId: 'u1',
  query: 'q',
  standaloneQuery: 'q rewritten',
  rewrite: 'llm',
  rewriteReason: null,
  passages: [passage(1, 'a'), passage(2, 'b')],
  expansions: { source: 'llm', variants: ['v1'] },
  hyde: { source: 'prf', passage: 'pseudo' },
  adaptive: null,
  belowThreshold: false,
  answerability: verdict,
  warnings: ['HyDE failed: timeout'],
  timings: { rewrite: 3, search: 40 },
};

const done = {
  conversationId: 'c1',
  messageId: 'm1',
  notFound: true,
  generator: 'none',
  source: 'documents',
  model: null,
  usage: { promptTokens: 10, completionTokens: 5 },
  timings: { rewrite: 0, search: 5, generation: 0, firstToken: null, total: 6 },
  generalKnowledgeAvailable: false,
};

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** A client whose chat stream sends `body` (SSE text). */
function streaming(body: string) {
  return createApiClient({
    baseUrl: 'http://api.test',
    fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  });
}

async function collect(stream: AsyncGenerator<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const events: ChatStreamEvent[] = [];
  for await (const item of stream) events.push(item);
  return events;
}

describe('chat stream events', () => {
  it('parses each event with its schema, keeping the wire shape', () => {
    expect(parseChatEvent('retrieval', JSON.stringify({ ...retrieval, extra: 'dropped' }))).toEqual({
      event: 'retrieval',
      data: retrieval,
    });
    expect(parseChatEvent('token', '{"text":"Hi"}')).toEqual({ event: 'token', data: { text: 'Hi' } });
    const citations = { citations: [citation(1, 'a')], droppedMarkers: [9], uncited: false };
    expect(parseChatEvent('citations', JSON.stringify(citations))).toEqual({
      event: 'citations',
      data: citations,
    });
    expect(parseChatEvent('done', JSON.stringify(done))).toEqual({ event: 'done', data: done });
    const error = { code: 'llm_timeout', message: 'The model took too long.', messageId: 'm2' };
    expect(parseChatEvent('error', JSON.stringify(error))).toEqual({ event: 'error', data: error });
  });

  it('finds an event unreadable when its data breaks the contract or is not JSON', () => {
    const { generalKnowledgeAvailable: _flag, ...doneWithoutFlag } = done;
    expect(parseChatEvent('done', JSON.stringify(doneWithoutFlag))).toBeNull();
    expect(parseChatEvent('retrieval', JSON.stringify({ passages: [] }))).toBeNull();
    expect(parseChatEvent('error', '{"code":"overheated","message":"Too hot."}')).toBeNull();
    expect(parseChatEvent('done', 'not json')).toBeNull();
    expect(parseChatEvent('token', 'raw text')).toBeNull();
  });

  it('knows the events the stream declares', () => {
    expect(['retrieval', 'token', 'citations', 'done', 'error'].every(isChatEventName)).toBe(true);
    expect(isChatEventName('ping')).toBe(false);
    expect(isChatEventName('toString')).toBe(false);
  });

  it('streams the events in order, ignoring events it does not know', async () => {
    const body =
      event('retrieval', retrieval) +
      event('ping', {}) +
      event('token', { text: 'Sixteen weeks [1].' }) +
      event('done', done);
    const events = await collect(streaming(body).streamChat({ message: 'q', settings: resolveSettings() }));
    expect(events.map((item) => item.event)).toEqual(['retrieval', 'token', 'done']);
  });

  it('ends the stream as an unreadable answer at an event that breaks the contract', async () => {
    const body =
      event('token', { text: 'Six' }) + event('done', { notFound: true }) + event('token', { text: 'x' });
    const seen: ChatStreamEvent[] = [];
    const error = await (async () => {
      try {
        for await (const item of streaming(body).streamChat({ message: 'q', settings: resolveSettings() }))
          seen.push(item);
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(seen).toEqual([{ event: 'token', data: { text: 'Six' } }]);
    if (!(error instanceof ApiError)) throw new Error('expected an ApiError');
    expect(error.code).toBe('invalid_response');
    expect(error.detail).toBe('POST /chat → 200: expected a readable done event');
  });
});

/** A client whose every request is answered with `body` (status `status`). */
function answering(body: unknown, status = 200) {
  return createApiClient({
    baseUrl: 'http://api.test',
    fetch: async () =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  });
}

const documentView = {
  id: 'd1',
  collectionId: 'col-1',
  title: 'Handbook',
  sourceName: 'handbook.md',
  mimeType: 'text/markdown',
  format: 'md',
  externalId: null,
  status: 'indexed',
  error: null,
  chunkCount: 4,
  byteSize: 1200,
  language: 'en',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiError)) throw new Error('expected an ApiError');
  return error;
}

describe('documents', () => {
  it('reads an upload answer with its duplicates, and refuses one that breaks the contract', async () => {
    const accepted = {
      id: 'd1',
      title: 'a',
      status: 'indexed',
      duplicate: true,
      jobId: null,
      externalId: null,
    };
    expect(
      await answering({ documents: [accepted] }, 202).uploadDocuments([new File(['x'], 'a.txt')]),
    ).toEqual({ documents: [accepted] });
    const { duplicate: _duplicate, ...withoutDuplicate } = accepted;
    const error = await refusal(
      answering({ documents: [withoutDuplicate] }, 202).uploadDocuments([new File(['x'], 'a.txt')]),
    );
    expect(error.code).toBe('invalid_response');
    expect(error.detail).toContain('expected the uploaded documents');
  });

  it('reads a page of documents; a row with an unknown status makes the answer unreadable', async () => {
    const page = { items: [documentView], page: 1, limit: 20, total: 1, totalPages: 1 };
    expect(await answering(page).listDocuments()).toEqual(page);
    const odd = { ...page, items: [{ ...documentView, status: 'weird' }] };
    expect((await refusal(answering(odd).listDocuments())).code).toBe('invalid_response');
  });

  it('reads a document with its live progress, and a page of its passages', async () => {
    const detail = {
      ...documentView,
      status: 'embedding',
      jobId: 'ingest-abc',
      progress: { stage: 'embedding', done: 2, total: 4, attempt: 1 },
    };
    expect(await answering(detail).getDocument('d1')).toEqual(detail);
    const chunk = {
      id: 'c1',
      ordinal: 0,
      text: 'Parents get sixteen weeks.',
      headingPath: ['Leave'],
      anchor: null,
      spanStart: 0,
      spanEnd: 26,
      embeddingModel: 'use-lite-512',
      hasEmbedding: true,
    };
    const chunks = { items: [chunk], page: 1, limit: 20, total: 1, totalPages: 1 };
    expect(await answering(chunks).listChunks('d1')).toEqual(chunks);
  });

  it('reads progress events with the shared schema, and refuses what is not one', () => {
    const event = {
      documentId: 'd1',
      status: 'embedding',
      stage: 'embedding',
      done: 3,
      total: 8,
      attempt: 1,
    };
    expect(parseDocumentEvent(JSON.stringify(event))).toEqual({
      status: 'embedding',
      stage: 'embedding',
      done: 3,
      total: 8,
      error: null,
      chunkCount: null,
    });
    expect(
      parseDocumentEvent(
        JSON.stringify({ ...event, status: 'failed', stage: 'failed', error: 'The PDF has no text layer.' }),
      ),
    ).toMatchObject({ status: 'failed', error: 'The PDF has no text layer.' });
    expect(
      parseDocumentEvent(JSON.stringify({ ...event, status: 'indexed', chunkCount: 12 }))?.chunkCount,
    ).toBe(12);
    // No status, an unknown one, or no JSON at all: not an event of this stream.
    expect(parseDocumentEvent('{"stage":"chunking","done":0,"total":0}')).toBeNull();
    expect(parseDocumentEvent(JSON.stringify({ ...event, status: 'melting' }))).toBeNull();
    expect(parseDocumentEvent('oops')).toBeNull();
  });
});

describe('search', () => {
  const hit = {
    chunkId: 'c1',
    documentId: 'd1',
    documentTitle: 'Handbook',
    externalId: null,
    headingPath: ['Leave', 'Parental leave'],
    anchor: null,
    text: 'Parents get sixteen weeks.',
    spanStart: 40,
    spanEnd: 66,
    pages: { first: 3, last: 4 },
    score: 0.82,
    similarity: null,
    provenance: [{ branch: 'original:bm25', rank: 1, score: 7.1 }],
  };
  const answer = {
    query: 'How long is parental leave?',
    settings: resolveSettings(),
    collectionIds: ['col-1'],
    results: [hit],
    expansions: { source: 'prf', model: null, variants: ['parental leave length'] },
    hyde: { source: 'llm', model: 'qwen2.5:7b/hyde-v1', passage: 'Parents may take leave.' },
    adaptive,
    belowThreshold: false,
    answerability: verdict,
    timings: { total: 12, perBranch: { 'original:bm25': 4 }, llm: 0, fuse: 1, rerank: 0, answerability: 1 },
    warnings: [],
    language: 'en',
  };

  it('reads a search answer as the wire has it, decisions and all', () => {
    expect(parseSearchResponse({ ...answer, extra: 'dropped' })).toEqual(answer);
    expect(parseSearchResponse({ ...answer, adaptive: null, answerability: null })).toMatchObject({
      adaptive: null,
      answerability: null,
    });
  });

  it('finds a search answer unreadable when it breaks the contract', () => {
    expect(parseSearchResponse({ results: [hit] })).toBeNull();
    expect(parseSearchResponse({ ...answer, results: [{ ...hit, documentTitle: undefined }] })).toBeNull();
    expect(
      parseSearchResponse({ ...answer, hyde: { source: 'unknown', model: null, passage: 'x' } }),
    ).toBeNull();
    expect(parseSearchResponse({ ...answer, answerability: { score: 0.5, threshold: 0.4 } })).toBeNull();
    expect(parseSearchResponse({ ...answer, adaptive: { ...adaptive, skipped: ['rerank'] } })).toBeNull();
  });
});

describe('conversations', () => {
  const message = {
    id: 'a',
    conversationId: 'c1',
    role: 'assistant',
    content: 'x',
    status: 'failed',
    replyToId: 'u',
    source: 'documents',
    generator: 'llm',
    notFound: false,
    citations: [citation(1, 'k')],
    droppedMarkers: [],
    uncited: false,
    model: 'm',
    usage: null,
    error: 'cut',
    hasTrace: true,
    feedback: null,
    createdAt: 't',
  };
  const detail = {
    id: 'c1',
    title: 'Leave',
    collectionIds: ['col-1'],
    messageCount: 1,
    createdAt: 't',
    updatedAt: 't',
    messages: { items: [message], page: 1, limit: 50, total: 1, totalPages: 1 },
  };

  it('reads a conversation with a page of messages', () => {
    expect(parseConversationDetail(detail)).toEqual(detail);
  });

  it('finds a conversation unreadable when a message breaks the contract', () => {
    const { hasTrace: _hasTrace, ...withoutTrace } = message;
    expect(
      parseConversationDetail({ ...detail, messages: { ...detail.messages, items: [withoutTrace] } }),
    ).toBeNull();
    expect(parseConversationDetail({ ...detail, messages: [message] })).toBeNull();
  });
});

describe('answerability and answer figures', () => {
  const trace = {
    id: 't1',
    messageId: 'm',
    query: 'q',
    standaloneQuery: 'q',
    rewrite: 'none',
    rewriteReason: null,
    settings: resolveSettings(),
    collectionIds: ['col-1'],
    expansions: null,
    hyde: null,
    adaptive,
    belowThreshold: false,
    answerability: verdict,
    retrieved: [
      {
        marker: 1,
        chunkId: 'k',
        documentId: 'd1',
        score: 0.5,
        similarity: null,
        provenance: [{ branch: 'original:bm25', rank: 1, score: 7.1 }],
      },
    ],
    promptVersion: null,
    model: null,
    generator: 'none',
    source: 'documents',
    usage: null,
    timings: { rewrite: 0, search: 5, generation: 0, firstToken: null, total: 6 },
    notFound: true,
    uncited: false,
    droppedMarkers: [],
    warnings: [],
    createdAt: 't',
  };

  it('reads the verdict and adaptive decision of a stored trace, null when there were none', () => {
    expect(parseTrace(trace)).toEqual(trace);
    expect(parseTrace({ ...trace, answerability: null, adaptive: null })).toMatchObject({
      answerability: null,
      adaptive: null,
    });
  });

  it('finds a trace unreadable when its verdict lacks a field', () => {
    const { answerable: _answerable, ...withoutAnswerable } = verdict;
    expect(parseTrace({ ...trace, answerability: withoutAnswerable })).toBeNull();
    expect(parseTrace({ messageId: 'm', query: 'q' })).toBeNull();
  });

  it('reads generalKnowledgeAvailable from done, true or false', () => {
    const flag = (value: boolean) => {
      const parsed = parseChatEvent('done', JSON.stringify({ ...done, generalKnowledgeAvailable: value }));
      return parsed?.event === 'done' ? parsed.data.generalKnowledgeAvailable : 'not done';
    };
    expect(flag(true)).toBe(true);
    expect(flag(false)).toBe(false);
  });

  it('reads a run with answer figures and per-item answers; a run made before them has nulls', () => {
    const rate = (count: number, items: number) => ({
      items,
      count,
      rate: count / items,
      low: 0.01,
      high: 0.3,
    });
    const answers = {
      inScopeRefused: rate(1, 20),
      outOfScopeAnswered: rate(0, 5),
      auc: 0.93,
      support: rate(16, 19),
      modelVersion: 'answerability-v1',
      generator: 'extractive-v2',
    };
    const item = {
      itemId: 'i1',
      question: 'Q?',
      inScope: true,
      level: 'document',
      retrievedChunkIds: ['c1'],
      ranking: ['d1'],
      firstRelevantRank: 1,
      metrics: { 'ndcg@10': 1 },
      refused: false,
      answerability: { ...verdict, features: { salientInCorpus: 0.2, lexicalRatio: 0.1 } },
      answer: 'It is **so** [1].',
      supported: true,
      citationCheck: { markers: 1, precise: 1, imprecise: [] },
      skippedReason: null,
      warnings: [],
    };
    const run = {
      id: 'r1',
      bankId: 'b1',
      status: 'completed',
      settings: resolveSettings(),
      embeddingModel: 'use-lite',
      chatModel: null,
      datasetHash: 'abc',
      itemCount: 2,
      metrics: { 'ndcg@10': 1 },
      error: null,
      createdAt: '2025-01-01T00:00:00Z',
      startedAt: '2025-01-01T00:00:01Z',
      finishedAt: '2025-01-01T00:00:09Z',
      searchOptions: {},
      promptVersions: { queryExpansion: null },
      intervals: { 'ndcg@10': { low: 0.8, high: 1, method: 'bootstrap' } },
      refusal: null,
      answers,
      scoredItems: 1,
      perItem: [
        item,
        // Made before answers and citation checks were measured.
        {
          ...item,
          itemId: 'i2',
          answerability: null,
          answer: null,
          supported: null,
          citationCheck: undefined,
        },
      ],
      timings: null,
      llmCalls: null,
      ablationId: null,
    };
    const parsed = parseEvalRun({ ...run, extra: 'dropped' });
    expect(parsed?.answers).toEqual(answers);
    expect(parsed?.perItem.map((row) => [row.itemId, row.answer, row.supported])).toEqual([
      ['i1', 'It is **so** [1].', true],
      ['i2', null, null],
    ]);
    expect(parsed && 'extra' in parsed).toBe(false);
    expect(parseEvalRun({ ...run, answers: null })?.answers).toBeNull();
  });

  it('finds a run unreadable when a field the contract requires is missing or of another kind', () => {
    expect(parseEvalRun({ id: 'r0', perItem: [] })).toBeNull();
    expect(parseEvalRun('r0')).toBeNull();
  });
});

describe('learned rerankers', () => {
  const ready = {
    id: 'r1',
    version: 'handbook-v2',
    bankId: 'b1',
    bankName: 'Handbook',
    collectionId: 'c1',
    status: 'ready',
    learner: 'lambdamart',
    candidateK: 30,
    active: true,
    activateWhenReady: false,
    error: null,
    note: null,
    measurement: {
      folds: 5,
      queries: 14,
      groupedBySource: true,
      ndcgBefore: 0.61,
      ndcgAfter: 0.74,
      p: 0.012,
      configured: { model: 'scripted', ndcg: 0.7, p: 0.3, calls: 14 },
      preferred: 'learned',
    },
    training: { queries: 14, pairs: 390 },
    importance: [{ feature: 'bm25', value: 1.2 }],
    createdAt: '2025-01-01T00:00:00Z',
    startedAt: '2025-01-01T00:00:01Z',
    finishedAt: '2025-01-01T00:00:09Z',
  };

  it('reads a fitted model with its cross-validated figures and the configured reranker beside them', () => {
    expect(parseRerankerModel(ready)).toEqual(ready);
  });

  it('reads a queued fit without figures', () => {
    const queued = {
      ...ready,
      status: 'queued',
      measurement: null,
      training: null,
      importance: [],
      startedAt: null,
      finishedAt: null,
    };
    expect(parseRerankerModel(queued)).toEqual(queued);
  });

  it('finds a model unreadable without an id, with an unknown status or learner, or a measurement without figures', () => {
    expect(parseRerankerModel({ ...ready, id: undefined })).toBeNull();
    expect(parseRerankerModel({ ...ready, status: 'done' })).toBeNull();
    expect(parseRerankerModel({ ...ready, learner: 'forest' })).toBeNull();
    expect(parseRerankerModel({ ...ready, measurement: { folds: 5 } })).toBeNull();
    expect(parseRerankerModel('ready')).toBeNull();
  });

  it('reads what serves enableRerank; an unknown source is an unreadable answer', () => {
    expect(parseActiveReranker({ model: 'ltr:handbook-v2', source: 'fitted', rerankerId: 'r1' })).toEqual({
      model: 'ltr:handbook-v2',
      source: 'fitted',
      rerankerId: 'r1',
    });
    expect(parseActiveReranker({ model: null, source: null, rerankerId: null })).toEqual({
      model: null,
      source: null,
      rerankerId: null,
    });
    expect(parseActiveReranker({ model: 'x', source: 'magic', rerankerId: null })).toBeNull();
    expect(parseActiveReranker(null)).toBeNull();
  });
});
