/** The readers of the resource files, each against answers old and new servers send. */
import { resolveSettings } from '@lumina/shared';
import { parseChatEvent, parseConversationDetail, parseTrace } from './chat';
import { createApiClient } from '../api-client';
import { ApiError } from '../api-errors';
import { parseDocumentEvent } from './documents';
import { parseEvalRun } from './evaluations';
import { asRecordWithId, parsePage } from './read';
import { parseActiveReranker, parseRerankerModel } from './rerankers';
import { parseAnswerability } from './search';

describe('chat stream events', () => {
  const passage = (marker: number, chunkId: string) => ({
    marker,
    chunkId,
    documentId: 'd1',
    title: 'Handbook',
    headingPath: ['Leave'],
    anchor: 'leave',
    span: { start: 100 * marker, end: 100 * marker + 40 },
    text: `Passage ${marker}`,
    score: 1 / marker,
    similarity: null,
    provenance: [{ branch: 'variant-1:bm25', rank: marker, score: 2 }],
  });

  it('reads the retrieval event into the /rag/search shape, passages in marker order', () => {
    const event = parseChatEvent(
      'retrieval',
      JSON.stringify({
        conversationId: 'c1',
        userMessageId: 'u1',
        query: 'q',
        standaloneQuery: 'q rewritten',
        passages: [passage(2, 'b'), passage(1, 'a')],
        expansions: { source: 'llm', variants: ['v1'] },
        hyde: { source: 'prf', passage: 'pseudo' },
        belowThreshold: false,
        warnings: ['HyDE failed: timeout'],
        timings: { rewrite: 3, search: 40 },
      }),
    );
    expect(event).toMatchObject({ type: 'retrieval', conversationId: 'c1', standaloneQuery: 'q rewritten' });
    if (event?.type !== 'retrieval') throw new Error('not a retrieval event');
    expect(event.search.results.map((result) => result.chunkId)).toEqual(['a', 'b']);
    expect(event.search.results[0]).toMatchObject({
      documentTitle: 'Handbook',
      spanStart: 100,
      spanEnd: 140,
    });
    expect(event.search.expansions).toEqual({ source: 'llm', variants: ['v1'] });
    expect(event.search.hyde).toEqual({ source: 'prf', passage: 'pseudo' });
    expect(event.search.timings).toEqual({ rewrite: 3, search: 40 });
    expect(event.search.warnings).toEqual(['HyDE failed: timeout']);
  });

  it('reads tokens, citations with dropped markers, done and error', () => {
    expect(parseChatEvent('token', '{"text":"Hi"}')).toEqual({ type: 'token', text: 'Hi' });
    expect(
      parseChatEvent(
        'citations',
        JSON.stringify({ citations: [passage(1, 'a')], droppedMarkers: [9], uncited: false }),
      ),
    ).toMatchObject({
      type: 'citations',
      dropped: [9],
      citations: [{ marker: 1, chunkId: 'a', span: { start: 100, end: 140 } }],
    });
    expect(
      parseChatEvent(
        'done',
        JSON.stringify({
          conversationId: 'c1',
          messageId: 'm1',
          notFound: true,
          generator: 'none',
          source: 'documents',
          model: null,
          usage: { promptTokens: 10, completionTokens: 5 },
          timings: { rewrite: 0, search: 5, generation: 0, firstToken: null, total: 6 },
        }),
      ),
    ).toEqual({
      type: 'done',
      done: {
        conversationId: 'c1',
        messageId: 'm1',
        notFound: true,
        generator: 'none',
        source: 'documents',
        model: null,
        usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
        timings: { rewrite: 0, search: 5, generation: 0, total: 6 },
        generalKnowledgeAvailable: null,
      },
    });
    expect(
      parseChatEvent('error', '{"code":"llm_timeout","message":"The model took too long.","messageId":"m2"}'),
    ).toEqual({
      type: 'error',
      code: 'llm_timeout',
      message: 'The model took too long.',
      conversationId: null,
      messageId: 'm2',
    });
  });

  it('ignores unknown events and survives unreadable data', () => {
    expect(parseChatEvent('ping', '{}')).toBeNull();
    expect(parseChatEvent('done', 'not json')).toBeNull();
    expect(parseChatEvent('token', 'raw text')).toEqual({ type: 'token', text: 'raw text' });
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

  it('reads progress events and keeps the previous status when one is missing', () => {
    expect(
      parseDocumentEvent('{"status":"embedding","stage":"embedding","done":3,"total":8}', 'queued'),
    ).toEqual({
      status: 'embedding',
      stage: 'embedding',
      done: 3,
      total: 8,
      error: null,
      chunkCount: null,
    });
    expect(parseDocumentEvent('{"stage":"chunking","done":0,"total":0}', 'parsing')?.status).toBe('chunking');
    expect(parseDocumentEvent('{"done":1}', 'parsing')?.status).toBe('parsing');
    expect(
      parseDocumentEvent(
        '{"status":"failed","stage":"failed","done":0,"total":0,"error":"The PDF has no text layer."}',
        'parsing',
      ),
    ).toMatchObject({ status: 'failed', error: 'The PDF has no text layer.' });
    expect(parseDocumentEvent('oops', 'queued')).toBeNull();
  });

  it('reads a page, leaving out rows it cannot read', () => {
    const page = parsePage(
      { items: [{ id: 'd1', title: 'A' }, { title: 'no id' }], page: 2, limit: 1, total: 3 },
      (row) => asRecordWithId<{ id: string; title: string }>(row),
    );
    expect(page).toMatchObject({ page: 2, limit: 1, total: 3, totalPages: 3 });
    expect(page?.items).toEqual([{ id: 'd1', title: 'A' }]);
  });
});

describe('conversations', () => {
  it('reads a conversation with a page of messages', () => {
    const detail = parseConversationDetail({
      id: 'c1',
      title: '  ',
      messageCount: 2,
      createdAt: 't',
      updatedAt: 't',
      messages: {
        items: [
          { id: 'u', role: 'user', content: 'q', status: 'complete' },
          {
            id: 'a',
            role: 'assistant',
            content: 'x',
            status: 'failed',
            error: 'cut',
            citations: [{ marker: 1, chunkId: 'k' }],
          },
        ],
        page: 1,
        limit: 50,
        total: 2,
        totalPages: 1,
      },
    });
    expect(detail?.title).toBe('Untitled conversation');
    expect(detail?.messages.items.map((message) => [message.role, message.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'failed'],
    ]);
    expect(detail?.messages.items[1].citations[0]).toMatchObject({
      marker: 1,
      chunkId: 'k',
      span: { start: 0, end: 0 },
    });
  });
});

describe('answerability and answer figures', () => {
  const verdict = {
    modelVersion: 'answerability-v1',
    score: 0.18,
    threshold: 0.42,
    answerable: false,
    features: { salientInCorpus: 0.2, lexicalRatio: 0.1, junk: 'x' },
    contributions: { salientInCorpus: -1.4, lexicalRatio: -0.3 },
    terms: [
      { term: 'mongolia', df: 0, idf: 9.1 },
      { term: 'capital', df: 3, idf: 4.2 },
    ],
  };

  it('reads the verdict of the retrieval event and of a stored trace, null when absent', () => {
    const event = parseChatEvent('retrieval', JSON.stringify({ passages: [], answerability: verdict }));
    expect(event?.type === 'retrieval' && event.search.answerability).toEqual({
      ...verdict,
      features: { salientInCorpus: 0.2, lexicalRatio: 0.1 },
    });
    const old = parseChatEvent('retrieval', JSON.stringify({ passages: [] }));
    expect(old?.type === 'retrieval' && old.search.answerability).toBeNull();
    expect(parseTrace({ messageId: 'm', query: 'q', answerability: verdict })?.answerability?.score).toBe(
      0.18,
    );
    expect(parseTrace({ messageId: 'm', query: 'q' })?.answerability).toBeNull();
  });

  it('derives answerable from score and threshold when missing, and rejects a verdict without a score', () => {
    expect(parseAnswerability({ score: 0.5, threshold: 0.4 })).toMatchObject({
      answerable: true,
      modelVersion: 'unknown',
      features: {},
      terms: [],
    });
    expect(
      parseAnswerability({ score: 0.5, threshold: 0.4, terms: [{ term: 'x', df: 2 }, { df: 1 }, 'y'] })
        ?.terms,
    ).toEqual([{ term: 'x', df: 2, idf: 0 }]);
    expect(parseAnswerability({ threshold: 0.4 })).toBeNull();
    expect(parseAnswerability('yes')).toBeNull();
  });

  it('reads generalKnowledgeAvailable from done: true, false, or null when the server does not say', () => {
    const flag = (body: object) => {
      const event = parseChatEvent('done', JSON.stringify(body));
      return event?.type === 'done' ? event.done.generalKnowledgeAvailable : 'not done';
    };
    expect(flag({ notFound: true, generalKnowledgeAvailable: true })).toBe(true);
    expect(flag({ notFound: true, generalKnowledgeAvailable: false })).toBe(false);
    expect(flag({ notFound: true })).toBeNull();
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
