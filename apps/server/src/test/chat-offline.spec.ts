import { NOT_FOUND_SENTENCE } from '@lumina/shared';
import { DataSource } from 'typeorm';
import { ConversationService } from '../modules/chat/conversation.service';
import { EMBEDDER } from '../providers/providers.module';
import { readJson } from './helpers/http';
import type { Json } from './helpers/http';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { eventOf, eventOrder, postSse, tokensOf } from './helpers/sse-client';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

/** The offline default: no LLM configured, the extractive answerer over the local embedder. */
describe('chat offline (extractive answerer, local embedder, embedded PGlite)', () => {
  let server: TestApp;

  const chat = (body: unknown) => postSse(`${server.baseUrl}/chat`, body);
  const request = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return { status: response.status, body: response.status === 204 ? null : await readJson(response) };
  };

  beforeAll(async () => {
    server = await startTestApp(testEnv());
    await seedDocuments(server.app.get(DataSource), server.app.get(EMBEDDER), RUNBOOK_CORPUS);
  });

  afterAll(async () => {
    await server.close();
  });

  it('quotes the sentences that carry the question, with contiguous citation markers, labelled extractive', async () => {
    const { status, events } = await chat({ message: 'How do I promote the standby replica?' });
    expect(status).toBe(200);
    expect(eventOrder(events)).toEqual(['retrieval', 'token', 'citations', 'done']);
    const text = tokensOf(events);
    expect(text).toContain('Promote the standby replica with pg_ctl promote.');
    expect(text).not.toContain('#');
    const retrieval = eventOf(events, 'retrieval');
    expect(retrieval.answerability).toEqual(
      expect.objectContaining({ modelVersion: 'answerability-lex-v1', answerable: true }),
    );
    const passages = retrieval.passages;
    const citations = eventOf(events, 'citations');
    expect(citations.citations.length).toBeGreaterThan(0);
    // Numbered 1, 2, … in citing order, each naming one of the retrieved passages.
    expect(citations.citations.map((c: Json) => c.marker)).toEqual(
      citations.citations.map((_: Json, i: number) => i + 1),
    );
    for (const citation of citations.citations) {
      expect(passages.map((p: Json) => p.chunkId)).toContain(citation.chunkId);
      expect(text).toContain(`[${citation.marker}]`);
    }
    expect(citations.citations[0]).toEqual(
      expect.objectContaining({ marker: 1, title: 'Database runbook', headingPath: ['Failover'] }),
    );
    const done = eventOf(events, 'done');
    expect(done).toEqual(
      expect.objectContaining({
        generator: 'extractive',
        notFound: false,
        source: 'documents',
        model: 'use-lite-512',
        usage: null,
      }),
    );
    const trace = (await request('GET', `/messages/${done.messageId}/trace`)).body;
    expect(trace).toEqual(
      expect.objectContaining({ generator: 'extractive', promptVersion: 'extractive-v8' }),
    );
    expect(trace.answerability).toEqual(retrieval.answerability);
  });

  it('stores the adaptive decision in the trace: offline expansion skipped for a question the runbook answers', async () => {
    const { events } = await chat({
      message: 'How many days does write-ahead log archiving keep point-in-time recovery possible?',
      settings: { enableQueryExpansion: 'adaptive', enableHyDE: 'adaptive' },
    });
    const retrieval = eventOf(events, 'retrieval');
    expect(retrieval.adaptive).toEqual(
      expect.objectContaining({
        policyVersion: 'adaptive-scifact-v1',
        skipped: ['expansion', 'hyde'],
        ran: [],
      }),
    );
    expect(retrieval.expansions).toBeNull();
    expect(retrieval.hyde).toBeNull();
    const trace = (await request('GET', `/messages/${eventOf(events, 'done').messageId}/trace`)).body;
    expect(trace.adaptive).toEqual(retrieval.adaptive);
    expect(trace.settings).toEqual(
      expect.objectContaining({ enableQueryExpansion: 'adaptive', enableHyDE: 'adaptive' }),
    );
  });

  it('refuses with the fixed sentence, before any answerer, when the decision says the documents do not answer', async () => {
    const { events } = await chat({ message: 'Which primary color do painters mix first?' });
    const retrieval = eventOf(events, 'retrieval');
    expect(retrieval.passages.length).toBeGreaterThan(0);
    expect(retrieval.answerability).toEqual(
      expect.objectContaining({ modelVersion: 'answerability-lex-v1', answerable: false }),
    );
    expect(retrieval.answerability.score).toBeLessThan(retrieval.answerability.threshold);
    expect(tokensOf(events)).toBe(NOT_FOUND_SENTENCE);
    expect(eventOf(events, 'done')).toEqual(
      expect.objectContaining({ generator: 'none', notFound: true, generalKnowledgeAvailable: false }),
    );
    expect(eventOf(events, 'citations').citations).toEqual([]);
  });

  it('refuses without any generator when the search finds nothing', async () => {
    const { events } = await chat({ message: 'Quantum chromodynamics of gluons' });
    expect(eventOf(events, 'retrieval').passages).toEqual([]);
    expect(tokensOf(events)).toBe(NOT_FOUND_SENTENCE);
    expect(eventOf(events, 'done')).toEqual(expect.objectContaining({ generator: 'none', notFound: true }));
  });

  it('says general knowledge needs an LLM (503) after a notFound answer', async () => {
    const { events } = await chat({ message: 'Quantum chromodynamics of gluons' });
    const done = eventOf(events, 'done');
    const response = await postSse(`${server.baseUrl}/chat/general`, {
      conversationId: done.conversationId,
      messageId: done.messageId,
    });
    expect(response.status).toBe(503);
    expect(response.body.message).toMatch(/general knowledge need a language model.*LLM_BASE_URL/);
  });

  it('searches a follow-up that names its own topic alone, says why, and keeps the conversation', async () => {
    const first = await chat({ message: 'Tell me about the database runbook' });
    const { conversationId } = eventOf(first.events, 'done');
    const { events } = await chat({ conversationId, message: 'When do backups run?' });
    expect(eventOf(events, 'retrieval')).toEqual(
      expect.objectContaining({
        standaloneQuery: 'When do backups run?',
        rewrite: 'none',
        rewriteReason: 'stands-alone',
      }),
    );
    expect(tokensOf(events)).toContain('Nightly base backups run at 02:00 UTC.');
    const trace = (await request('GET', `/messages/${eventOf(events, 'done').messageId}/trace`)).body;
    expect([trace.rewrite, trace.rewriteReason]).toEqual(['none', 'stands-alone']);
    const conversation = (await request('GET', `/conversations/${conversationId}`)).body;
    expect(conversation.title).toBe('Tell me about the database runbook');
    expect(conversation.messageCount).toBe(4);
    expect(conversation.messages.items.map((m: Json) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(conversation.messages.items.map((m: Json) => m.hasTrace)).toEqual([false, true, false, true]);

    // The answer's turn carries the text of the passages it cited (read back from the chunks): a
    // follow-up that points back is searched with their words too.
    const history = await server.app.get(ConversationService).history(conversationId);
    expect(history.map((turn) => turn.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(history[3]!.citedPassages?.length).toBeGreaterThan(0);
    expect(history[3]!.citedPassages!.join('\n')).toContain('Nightly base backups run at 02:00 UTC.');

    // A question that points back is searched with the earlier question too; the trace says which led.
    const third = await chat({ conversationId, message: 'Can they be restored elsewhere?' });
    const retrieval = eventOf(third.events, 'retrieval');
    const thirdTrace = (await request('GET', `/messages/${eventOf(third.events, 'done').messageId}/trace`))
      .body;
    expect(['refers-back', 'alone-leads']).toContain(retrieval.rewriteReason);
    expect(retrieval.standaloneQuery).toBe(
      retrieval.rewriteReason === 'refers-back'
        ? 'When do backups run? Can they be restored elsewhere?'
        : 'Can they be restored elsewhere?',
    );
    expect([thirdTrace.rewrite, thirdTrace.rewriteReason]).toEqual([
      retrieval.rewrite,
      retrieval.rewriteReason,
    ]);
  });

  it('lists conversations (paginated, most recent first), pages messages, deletes', async () => {
    const ids: string[] = [];
    for (const message of ['First question about failover', 'Second question about backups']) {
      ids.push(eventOf((await chat({ message })).events, 'done').conversationId);
    }
    const list = (await request('GET', '/conversations?page=1&limit=1')).body;
    expect(list).toEqual(expect.objectContaining({ page: 1, limit: 1 }));
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toEqual(
      expect.objectContaining({ id: ids[1], title: 'Second question about backups', messageCount: 2 }),
    );
    expect(list.totalPages).toBe(list.total);
    const second = (await request('GET', '/conversations?page=2&limit=1')).body;
    expect(second.items[0].id).toBe(ids[0]);

    const paged = (await request('GET', `/conversations/${ids[1]}?page=2&limit=1`)).body;
    expect(paged.messages).toEqual(expect.objectContaining({ page: 2, limit: 1, total: 2, totalPages: 2 }));
    expect(paged.messages.items.map((m: Json) => m.role)).toEqual(['assistant']);
    const answerId = paged.messages.items[0].id;

    const renamed = await request('PATCH', `/conversations/${ids[1]}`, { title: 'Backups, renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual(
      expect.objectContaining({ id: ids[1], title: 'Backups, renamed', messageCount: 2 }),
    );
    expect((await request('GET', `/conversations/${ids[1]}`)).body.title).toBe('Backups, renamed');
    expect((await request('PATCH', `/conversations/${ids[1]}`, { title: '   ' })).status).toBe(400);
    expect((await request('PATCH', `/conversations/${ids[1]}`, { title: 'x'.repeat(81) })).status).toBe(400);
    expect((await request('PATCH', `/conversations/${ids[1]}`, { title: 'ok', owner: 'me' })).status).toBe(
      400,
    );
    expect(
      (await request('PATCH', '/conversations/00000000-0000-4000-8000-000000000000', { title: 'ok' })).status,
    ).toBe(404);

    expect((await request('DELETE', `/conversations/${ids[1]}`)).status).toBe(204);
    expect((await request('GET', `/conversations/${ids[1]}`)).status).toBe(404);
    expect((await request('DELETE', `/conversations/${ids[1]}`)).status).toBe(404);
    expect((await request('GET', `/messages/${answerId}/trace`)).status).toBe(404);
  });

  it('explains a missing trace, and rejects malformed ids and pages', async () => {
    const { events } = await chat({ message: 'Who approves production access?' });
    const question = await request('GET', `/messages/${eventOf(events, 'retrieval').userMessageId}/trace`);
    expect(question.status).toBe(404);
    expect(question.body.message).toMatch(/is a question; only answers have a retrieval trace/);
    expect((await request('GET', '/messages/00000000-0000-4000-8000-000000000000/trace')).status).toBe(404);
    expect((await request('GET', '/messages/nope/trace')).status).toBe(400);
    expect((await request('GET', '/conversations/nope')).status).toBe(400);
    expect((await request('GET', '/conversations?page=0')).status).toBe(400);
  });
});
