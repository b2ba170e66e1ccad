import { DataSource } from 'typeorm';
import { EMBEDDER } from '../providers/providers.module';
import { readJson } from './helpers/http';
import type { Json } from './helpers/http';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { eventOf, postSse } from './helpers/sse-client';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

/** Search, export, regenerate and edit: what a chat app offers around the answers. */
describe('conversation tools: search, Markdown export, regenerate, edit and resend', () => {
  let server: TestApp;

  const chat = (body: unknown) => postSse(`${server.baseUrl}/chat`, body);
  const get = async (path: string) => {
    const response = await fetch(`${server.baseUrl}${path}`);
    return { status: response.status, body: await readJson(response) };
  };
  /** Asks and returns the ids of the `done` event. */
  const ask = async (body: Record<string, unknown>) => {
    const { status, events } = await chat(body);
    expect(status).toBe(200);
    const done = eventOf(events, 'done');
    return { conversationId: done.conversationId as string, answerId: done.messageId as string, events };
  };
  const messagesOf = async (id: string): Promise<Json[]> =>
    (await get(`/conversations/${id}`)).body.messages.items;

  beforeAll(async () => {
    server = await startTestApp(testEnv());
    await seedDocuments(server.app.get(DataSource), server.app.get(EMBEDDER), RUNBOOK_CORPUS);
  });

  afterAll(async () => {
    await server.close();
  });

  it('finds conversations by title or by any message, any case, paginated, wildcards taken literally', async () => {
    const failover = await ask({ message: 'How do I promote the standby replica?' });
    await ask({ conversationId: failover.conversationId, message: 'When do the nightly backups run?' });
    const cache = await ask({ message: 'Why are Redis evictions disabled?' });
    await ask({ message: 'Who approves production access?' });

    // By title (the first question).
    const byTitle = await get('/conversations?q=STANDBY');
    expect(byTitle.status).toBe(200);
    expect(byTitle.body.items.map((c: Json) => c.id)).toEqual([failover.conversationId]);
    // By a later question's text, and by an answer's text.
    expect((await get('/conversations?q=nightly')).body.items.map((c: Json) => c.id)).toEqual([
      failover.conversationId,
    ]);
    expect((await get('/conversations?q=job%20is%20lost')).body.items.map((c: Json) => c.id)).toEqual([
      cache.conversationId,
    ]);
    // Paginated, newest first, with the total of matches.
    const page1 = await get('/conversations?q=%3F&limit=2');
    expect(page1.body).toEqual(expect.objectContaining({ total: 3, totalPages: 2, page: 1, limit: 2 }));
    expect(page1.body.items).toHaveLength(2);
    const page2 = await get('/conversations?q=%3F&limit=2&page=2');
    expect(page2.body.items).toHaveLength(1);
    // `%` and `_` are text, not wildcards ("pg%ctl" and "r_dis" would match "pg_ctl" and "Redis").
    expect((await get('/conversations?q=pg%25ctl')).body.total).toBe(0);
    expect((await get('/conversations?q=r_dis')).body.total).toBe(0);
    expect((await get('/conversations?q=pg_ctl')).body.total).toBe(1);
    // No q: every conversation.
    expect((await get('/conversations')).body.total).toBe(3);
    const tooLong = await get(`/conversations?q=${'a'.repeat(201)}`);
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.body)).toContain('q must be at most 200 characters long');
  });

  it('exports a conversation as Markdown with each answer’s sources', async () => {
    const { conversationId } = await ask({ message: 'How do I promote the standby replica to primary?' });
    const response = await fetch(`${server.baseUrl}/conversations/${conversationId}/export`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="how-do-i-promote-the-standby-replica-to-primary.md"',
    );
    const markdown = await response.text();
    expect(markdown).toMatch(/^# How do I promote the standby replica to primary\?\n/);
    expect(markdown).toContain('## Question\n\nHow do I promote the standby replica to primary?');
    expect(markdown).toContain('Promote the standby replica with pg_ctl promote.');
    expect(markdown).toContain('**Sources**');
    expect(markdown).toMatch(/- \[1\] Database runbook › Failover/);
    expect((await get('/conversations/3fa85f64-5717-4562-b3fc-2c963f66afa6/export')).status).toBe(404);
  });

  it('regenerates the last answer and edits an earlier question, dropping what followed it', async () => {
    const first = await ask({ message: 'How do I promote the standby replica?' });
    const id = first.conversationId;
    await ask({ conversationId: id, message: 'When do the nightly backups run?' });
    const [q1, a1, q2, a2] = await messagesOf(id);

    // Regenerate: the same question in place of the last one.
    const again = await ask({ conversationId: id, replaceMessageId: q2.id, message: q2.content });
    const afterRegenerate = await messagesOf(id);
    expect(afterRegenerate.map((m: Json) => m.content)).toEqual([
      q1.content,
      a1.content,
      q2.content,
      a2.content,
    ]);
    expect(afterRegenerate.map((m: Json) => m.id)).not.toContain(a2.id);
    expect(afterRegenerate[3].id).toBe(again.answerId);
    expect(afterRegenerate[0].id).toBe(q1.id);

    // Edit the first question: the second turn goes too.
    await ask({ conversationId: id, replaceMessageId: q1.id, message: 'Why are Redis evictions disabled?' });
    const afterEdit = await messagesOf(id);
    expect(afterEdit).toHaveLength(2);
    expect(afterEdit[0].content).toBe('Why are Redis evictions disabled?');
    expect(afterEdit[1].content).toContain('Evictions are disabled so that no job is lost.');
    expect(afterEdit[1].citations[0]).toEqual(expect.objectContaining({ title: 'Cache guide' }));
  });

  it('refuses a replacement that is not a question of the conversation, before the stream opens', async () => {
    const { conversationId, answerId } = await ask({ message: 'Who approves production access?' });
    const other = await ask({ message: 'Why are Redis evictions disabled?' });
    const [otherQuestion] = await messagesOf(other.conversationId);

    const answer = await chat({ conversationId, replaceMessageId: answerId, message: 'x' });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('replaceMessageId must name a question');
    const foreign = await chat({ conversationId, replaceMessageId: otherQuestion.id, message: 'x' });
    expect(foreign.status).toBe(404);
    const alone = await chat({ replaceMessageId: otherQuestion.id, message: 'x' });
    expect(alone.status).toBe(400);
    expect(JSON.stringify(alone.body)).toContain('replaceMessageId needs the conversationId');
    const malformed = await chat({ conversationId, replaceMessageId: 'nope', message: 'x' });
    expect(malformed.status).toBe(400);
    // Nothing was deleted by the refused asks.
    expect(await messagesOf(conversationId)).toHaveLength(2);
  });
});
