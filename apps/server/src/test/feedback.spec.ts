import { randomUUID } from 'node:crypto';
import { feedbackDailySchema, feedbackEntrySchema, feedbackSchema, pageOf } from '@lumina/shared';
import { z } from 'zod/v4';
import { DataSource } from 'typeorm';
import { EMBEDDER } from '../providers/providers.module';
import type { Json } from './helpers/http';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { eventOf, postSse } from './helpers/sse-client';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { TEST_BACKEND } from './helpers/test-backend';
import { testEnv } from './helpers/test-env';

const ADMIN_KEY = 'feedback-suite-admin-key-0123456789';

interface Reply {
  status: number;
  body: Json;
}

interface Answer {
  conversationId: string;
  questionId: string;
  answerId: string;
  notFound: boolean;
  citations: Json[];
}

/** The value of one series in a Prometheus text scrape (0 when it is not there yet). */
function seriesValue(scrape: string, series: string): number {
  const line = scrape.split('\n').find((row) => row.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/**
 * Feedback from real use becomes evaluation: the conversation's key rates an answer, a reviewer finds it
 * in the queue with what it needs to judge it, turns it into bank items, and an evaluation run of that
 * bank scores them. Offline (extractive answers over the runbook corpus), in keys mode.
 */
describe(`feedback on answers, the review queue and bank items from it (${TEST_BACKEND})`, () => {
  let server: TestApp;
  let dataSource: DataSource;
  let defaultCollection: string;
  let otherCollection: string;
  const keys = {} as Record<'reader' | 'writer' | 'outsider', string>;
  /** The reader's answers. */
  const answers = {} as Record<'promote' | 'painters' | 'backups' | 'archiving', Answer>;
  let adminAnswer: Answer;
  const feedbackIds = {} as Record<'promote' | 'painters' | 'backups' | 'archiving' | 'admin', string>;
  let bankId: string;
  let metricsBefore: string;

  const send = async (key: string, method: string, path: string, body?: unknown): Promise<Reply> => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: {
        'x-api-key': key,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: Json = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // /metrics is text
    }
    return { status: response.status, body: parsed };
  };
  const admin = (method: string, path: string, body?: unknown) => send(ADMIN_KEY, method, path, body);
  const as = (who: keyof typeof keys) => (method: string, path: string, body?: unknown) =>
    send(keys[who], method, path, body);
  const ask = async (key: string, message: string, collectionIds?: string[]): Promise<Answer> => {
    const reply = await postSse(
      `${server.baseUrl}/chat`,
      { message, ...(collectionIds ? { collectionIds } : {}) },
      { headers: { 'x-api-key': key } },
    );
    expect(reply.status).toBe(200);
    const done = eventOf(reply.events, 'done');
    return {
      conversationId: done.conversationId,
      questionId: eventOf(reply.events, 'retrieval').userMessageId,
      answerId: done.messageId,
      notFound: done.notFound,
      citations: eventOf(reply.events, 'citations').citations,
    };
  };
  const rate = (who: keyof typeof keys, messageId: string, body: unknown) =>
    as(who)('POST', `/messages/${messageId}/feedback`, body);
  const messageText = (reply: Reply): string => [reply.body.message].flat().join(' | ');
  const scrape = async () => {
    const reply = await admin('GET', '/metrics');
    expect(reply.status).toBe(200);
    return reply.body as string;
  };
  const runToEnd = async (bank: string): Promise<Json> => {
    const queued = await as('writer')('POST', `/question-banks/${bank}/evaluate`, {
      settings: { ranker: 'bm25' },
    });
    expect(queued.status).toBe(202);
    const until = Date.now() + 60_000;
    for (;;) {
      const run = await as('writer')('GET', `/eval-runs/${queued.body.id}`);
      if (run.body.status === 'completed' || run.body.status === 'failed') return run.body;
      if (Date.now() > until) throw new Error(`run ${queued.body.id} still ${run.body.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    server = await startTestApp(testEnv({ ADMIN_API_KEY: ADMIN_KEY }));
    dataSource = server.app.get(DataSource);
    await seedDocuments(dataSource, server.app.get(EMBEDDER), RUNBOOK_CORPUS);
    [{ id: defaultCollection }] = await dataSource.query(`SELECT default_collection_id() AS id`);

    // A second collection, with the admin's answer in it: no business of the default's reviewers.
    const other = await admin('POST', '/collections', {
      name: 'Harbour',
      slug: 'harbour',
      description: 'The harbour office.',
    });
    expect(other.status).toBe(201);
    otherCollection = other.body.id;
    const harbour = await seedDocuments(dataSource, server.app.get(EMBEDDER), [
      {
        title: 'Harbour ledger',
        text: 'The lighthouse keeper logs every passing ship in the harbour ledger.',
      },
    ]);
    await dataSource.query(`UPDATE documents SET collection_id = $2 WHERE id = ANY($1::uuid[])`, [
      harbour,
      otherCollection,
    ]);
    await dataSource.query(`UPDATE chunks SET collection_id = $2 WHERE document_id = ANY($1::uuid[])`, [
      harbour,
      otherCollection,
    ]);

    for (const [who, grants] of [
      ['reader', [{ collectionId: defaultCollection, access: 'read' }]],
      ['writer', [{ collectionId: defaultCollection, access: 'write' }]],
      ['outsider', [{ collectionId: defaultCollection, access: 'read' }]],
    ] as const) {
      const created = await admin('POST', '/auth/keys', { name: who, role: 'user', grants });
      expect(created.status).toBe(201);
      keys[who] = created.body.key;
    }

    metricsBefore = await scrape();
    answers.promote = await ask(keys.reader, 'How do I promote the standby replica?');
    answers.painters = await ask(keys.reader, 'Which primary color do painters mix first?');
    answers.backups = await ask(keys.reader, 'When do the nightly base backups run?');
    answers.archiving = await ask(
      keys.reader,
      'How many days does write-ahead log archiving keep point-in-time recovery possible?',
    );
    adminAnswer = await ask(ADMIN_KEY, 'Who logs the passing ships?', [otherCollection]);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers offline: the runbook answers carry citations, the painters question is refused', () => {
    expect(answers.promote).toMatchObject({ notFound: false });
    expect(answers.promote.citations.length).toBeGreaterThan(0);
    expect(answers.backups.notFound).toBe(false);
    expect(answers.archiving.notFound).toBe(false);
    expect(answers.painters).toMatchObject({ notFound: true, citations: [] });
  });

  it('rates an answer up, then down with reasons and a note: the second rating replaces the first', async () => {
    const up = await rate('reader', answers.promote.answerId, { rating: 'up' });
    expect(up.status).toBe(200);
    // Exactly the contract's fields.
    expect(z.strictObject(feedbackSchema.shape).safeParse(up.body).error).toBeUndefined();
    expect(up.body).toMatchObject({
      messageId: answers.promote.answerId,
      rating: 'up',
      reasons: [],
      note: null,
      collectionIds: [defaultCollection],
      reviewedAt: null,
    });
    const down = await rate('reader', answers.promote.answerId, {
      rating: 'down',
      reasons: ['wrong', 'wrong'],
      note: 'Promote it with pg_ctl promote, then repoint the application connection string',
    });
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ id: up.body.id, rating: 'down', reasons: ['wrong'] });
    expect(Date.parse(down.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(up.body.updatedAt));
    feedbackIds.promote = down.body.id;

    const read = await as('reader')('GET', `/messages/${answers.promote.answerId}/feedback`);
    expect(read).toEqual({ status: 200, body: down.body });
    const [{ count }] = await dataSource.query(
      `SELECT count(*)::int AS count FROM message_feedback WHERE message_id = $1`,
      [answers.promote.answerId],
    );
    expect(count).toBe(1);

    // Withdrawn, then given again.
    expect((await as('reader')('DELETE', `/messages/${answers.promote.answerId}/feedback`)).status).toBe(204);
    expect((await as('reader')('GET', `/messages/${answers.promote.answerId}/feedback`)).status).toBe(404);
    const again = await rate('reader', answers.promote.answerId, {
      rating: 'down',
      reasons: ['wrong'],
      note: 'Promote it with pg_ctl promote, then repoint the application connection string',
    });
    expect(again.status).toBe(200);
    feedbackIds.promote = again.body.id;

    for (const [name, body] of [
      ['painters', { rating: 'down', reasons: ['wrongly_refused'], note: 'The cache guide says it' }],
      ['backups', { rating: 'down', reasons: ['should_have_refused'] }],
      ['archiving', { rating: 'down', reasons: ['incomplete'], note: 'Seven days' }],
    ] as const) {
      const reply = await rate('reader', answers[name].answerId, body);
      expect({ name, status: reply.status }).toEqual({ name, status: 200 });
      feedbackIds[name] = reply.body.id;
    }
    const mine = await rate('reader', answers.painters.answerId, {
      rating: 'down',
      reasons: ['wrongly_refused'],
      note: 'The cache guide says it',
    });
    expect(mine.body.id).toBe(feedbackIds.painters);
    const adminRating = await admin('POST', `/messages/${adminAnswer.answerId}/feedback`, {
      rating: 'down',
      reasons: ['incomplete'],
    });
    expect(adminRating.status).toBe(200);
    expect(adminRating.body.collectionIds).toEqual([otherCollection]);
    feedbackIds.admin = adminRating.body.id;
  });

  it('answers 400 with the reason for every rating it cannot take', async () => {
    const answer = answers.promote.answerId;
    const unknown = await rate('reader', answer, { rating: 'down', reasons: ['boring'] });
    expect(unknown.status).toBe(400);
    expect(messageText(unknown)).toContain('reason must be one of wrong, incomplete, wrong_citation');

    const long = await rate('reader', answer, { rating: 'down', note: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(messageText(long)).toContain('note must be shorter than or equal to 2000 characters');

    const upWithReasons = await rate('reader', answer, { rating: 'up', reasons: ['wrong'] });
    expect(upWithReasons.status).toBe(400);
    expect(messageText(upWithReasons)).toContain('reasons go with a rating down');

    const notRefused = await rate('reader', answer, { rating: 'down', reasons: ['wrongly_refused'] });
    expect(notRefused.status).toBe(400);
    expect(messageText(notRefused)).toContain('wrongly_refused is for an answer that said the documents');

    const refused = await rate('reader', answers.painters.answerId, {
      rating: 'down',
      reasons: ['should_have_refused'],
    });
    expect(refused.status).toBe(400);
    expect(messageText(refused)).toContain('should_have_refused is for an answer that answered');

    const question = await rate('reader', answers.promote.questionId, { rating: 'down' });
    expect(question.status).toBe(400);
    expect(messageText(question)).toContain(`rate its answer (message ${answer})`);

    // A question whose answer is still being written (stored when it completes), and one that failed.
    const [pending] = await dataSource.query(
      `INSERT INTO messages (conversation_id, role, content) VALUES ($1, 'user', 'And the backups?') RETURNING id`,
      [answers.promote.conversationId],
    );
    const unanswered = await rate('reader', pending.id, { rating: 'up' });
    expect(unanswered.status).toBe(400);
    expect(messageText(unanswered)).toContain('its answer is not there yet (it is still being written');
    const [failed] = await dataSource.query(
      `INSERT INTO messages (conversation_id, role, content, status, reply_to_id)
       VALUES ($1, 'assistant', 'Nightly', 'failed', $2) RETURNING id`,
      [answers.promote.conversationId, pending.id],
    );
    const incomplete = await rate('reader', failed.id, { rating: 'up' });
    expect(incomplete.status).toBe(400);
    expect(messageText(incomplete)).toContain('only complete answers can be rated');
    await dataSource.query(`DELETE FROM messages WHERE id = ANY($1::uuid[])`, [[failed.id, pending.id]]);

    const strict = await rate('reader', answer, { rating: 'down', stars: 1 });
    expect(strict.status).toBe(400);
    expect(messageText(strict)).toContain('property stars should not exist');
    // None of them changed the rating.
    const kept = await as('reader')('GET', `/messages/${answer}/feedback`);
    expect(kept.body).toMatchObject({ rating: 'down', reasons: ['wrong'] });
  });

  it("answers another key's message as a message that does not exist (404), for rating and reading", async () => {
    const answer = answers.promote.answerId;
    const missing = randomUUID();
    for (const [method, body] of [
      ['POST', { rating: 'up' }],
      ['GET', undefined],
      ['DELETE', undefined],
    ] as const) {
      const foreign = await as('outsider')(method, `/messages/${answer}/feedback`, body);
      const unknown = await as('outsider')(method, `/messages/${missing}/feedback`, body);
      expect({ method, status: foreign.status }).toEqual({ method, status: 404 });
      expect(JSON.stringify(foreign.body).split(answer).join('<id>')).toBe(
        JSON.stringify(unknown.body).split(missing).join('<id>'),
      );
    }
    const adminTry = await admin('GET', `/messages/${answer}/feedback`);
    expect(adminTry.status).toBe(404);
    expect((await as('reader')('GET', `/messages/${answer}/feedback`)).body.rating).toBe('down');
  });

  it('lists the queue for admins and write holders, with what a reviewer needs, and filters it', async () => {
    const all = await admin('GET', '/feedback');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(5);
    expect(pageOf(feedbackEntrySchema).safeParse(all.body).error).toBeUndefined();
    expect(Object.keys(all.body.items[0]).sort()).toEqual(Object.keys(feedbackEntrySchema.shape).sort());
    const entry = all.body.items.find((item: Json) => item.feedback.id === feedbackIds.promote);
    expect(entry).toMatchObject({
      question: 'How do I promote the standby replica?',
      standaloneQuery: 'How do I promote the standby replica?',
      answer: {
        id: answers.promote.answerId,
        conversationId: answers.promote.conversationId,
        status: 'complete',
        notFound: false,
      },
      traceUrl: `/messages/${answers.promote.answerId}/trace`,
      answerability: expect.objectContaining({ modelVersion: 'answerability-lex-v1', answerable: true }),
      reviewed: false,
      bankItem: null,
    });
    expect(entry.answer.content).toContain('pg_ctl promote');
    expect(entry.settings).toEqual(expect.objectContaining({ ranker: expect.any(String) }));
    expect(entry.citedPassages.length).toBe(answers.promote.citations.length);
    expect(entry.citedPassages[0]).toMatchObject({
      chunkId: answers.promote.citations[0].chunkId,
      title: 'Database runbook',
      text: expect.stringContaining('pg_ctl promote'),
    });
    const trace = await as('reader')('GET', entry.traceUrl);
    expect(trace.status).toBe(200);
    // The trace's top passages, marked where cited, and sources proposed from both (cited first).
    const retrieved: Json[] = trace.body.retrieved;
    expect(entry.topPassages.map((passage: Json) => passage.chunkId)).toEqual(
      retrieved.slice(0, 5).map((passage) => passage.chunkId),
    );
    const citedIds = new Set(answers.promote.citations.map((citation: Json) => citation.chunkId));
    for (const [index, passage] of entry.topPassages.entries()) {
      expect(passage).toMatchObject({ rank: index + 1, title: expect.any(String), text: expect.any(String) });
      expect(passage.cited).toBe(citedIds.has(passage.chunkId));
    }
    const proposed = entry.proposedSources.map((source: Json) => source.chunkId);
    expect(proposed.slice(0, citedIds.size).sort()).toEqual([...citedIds].sort());
    expect(new Set(proposed).size).toBe(proposed.length);
    expect(proposed.length).toBe(
      Math.min(5, new Set([...citedIds, ...entry.topPassages.map((passage: Json) => passage.chunkId)]).size),
    );
    // A refusal cites nothing: its proposals come from the trace alone.
    const refused = all.body.items.find((item: Json) => item.feedback.id === feedbackIds.painters);
    expect(refused.citedPassages).toEqual([]);
    expect(refused.proposedSources.map((source: Json) => source.chunkId)).toEqual(
      refused.topPassages.map((passage: Json) => passage.chunkId),
    );

    const ids = (reply: Reply) => reply.body.items.map((item: Json) => item.feedback.id).sort();
    expect(ids(await admin('GET', '/feedback?rating=down&reason=wrong'))).toEqual([feedbackIds.promote]);
    expect(ids(await admin('GET', '/feedback?reason=wrongly_refused'))).toEqual([feedbackIds.painters]);
    expect(ids(await admin('GET', `/feedback?collectionId=${otherCollection}`))).toEqual([feedbackIds.admin]);
    expect((await admin('GET', '/feedback?rating=up')).body.total).toBe(0);
    expect((await admin('GET', '/feedback?unreviewed=true')).body.total).toBe(5);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    expect((await admin('GET', `/feedback?from=${tomorrow}`)).body.total).toBe(0);
    expect((await admin('GET', `/feedback?to=${yesterday}`)).body.total).toBe(0);
    expect((await admin('GET', `/feedback?from=${yesterday}&to=${tomorrow}`)).body.total).toBe(5);
    const paged = await admin('GET', '/feedback?limit=2&page=2');
    expect(paged.body).toMatchObject({ page: 2, limit: 2, total: 5, totalPages: 3 });
    expect(paged.body.items).toHaveLength(2);
    const bad = await admin('GET', '/feedback?reason=boring&from=yesterday');
    expect(bad.status).toBe(400);
    expect(messageText(bad)).toContain('from must be a date or a date-time');

    // A write grant on the default collection: its answers' feedback only, never the harbour's.
    const writer = await as('writer')('GET', '/feedback?limit=100');
    expect(writer.status).toBe(200);
    expect(ids(writer)).toEqual(
      [feedbackIds.promote, feedbackIds.painters, feedbackIds.backups, feedbackIds.archiving].sort(),
    );
    expect(JSON.stringify(writer.body)).not.toContain('lighthouse');
    // A read grant reviews nothing.
    const reader = await as('reader')('GET', '/feedback');
    expect(reader.status).toBe(200);
    expect(reader.body).toMatchObject({ total: 0, items: [] });
    expect((await as('writer')('POST', `/feedback/${feedbackIds.admin}/review`)).status).toBe(404);

    // The conversation shows its key's rating on each answer, so the chat can show it when reopened.
    const conversation = await as('reader')('GET', `/conversations/${answers.promote.conversationId}`);
    const rated = conversation.body.messages.items.find((m: Json) => m.id === answers.promote.answerId);
    expect(rated.feedback).toMatchObject({ rating: 'down', reasons: ['wrong'] });
    const question = conversation.body.messages.items.find((m: Json) => m.role === 'user');
    expect(question.feedback).toBeNull();
  });

  it("charts each day's answers, refusals and ratings for the reviewers, zero-filled", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const week = await admin('GET', '/feedback/daily?days=7');
    expect(week.status).toBe(200);
    expect(feedbackDailySchema.safeParse(week.body).error).toBeUndefined();
    expect(week.body.days).toHaveLength(7);
    expect(week.body.days.at(-1).day).toBe(today);
    expect(week.body.days.slice(0, 6).every((day: Json) => day.answers === 0 && day.down === 0)).toBe(true);
    const given = [...Object.values(answers), adminAnswer];
    const [feedbackRows]: { up: number; down: number }[] = await dataSource.query(
      `SELECT count(*) FILTER (WHERE rating = 'up')::int AS up, count(*) FILTER (WHERE rating = 'down')::int AS down
       FROM message_feedback`,
    );
    expect(week.body.days.at(-1)).toEqual({
      day: today,
      answers: given.length,
      notFound: given.filter((answer) => answer.notFound).length,
      up: feedbackRows.up,
      down: feedbackRows.down,
    });
    // The writer counts the default collection's answers only; a read grant counts nothing.
    const writer = await as('writer')('GET', '/feedback/daily?days=1');
    expect(writer.body.days).toEqual([
      expect.objectContaining({ day: today, answers: Object.values(answers).length }),
    ]);
    const harbour = await admin('GET', `/feedback/daily?days=1&collectionId=${otherCollection}`);
    expect(harbour.body.days[0]).toMatchObject({ answers: 1 });
    const reader = await as('reader')('GET', '/feedback/daily?days=2');
    expect(reader.body.days.map((day: Json) => day.answers)).toEqual([0, 0]);
    for (const days of ['0', '367', 'week']) {
      const bad = await admin('GET', `/feedback/daily?days=${days}`);
      expect(bad.status).toBe(400);
      expect(messageText(bad)).toContain('days must be');
    }
  });

  it('turns ratings into bank items: out of scope, in scope with confirmed or proposed sources, all or nothing', async () => {
    const bank = await as('writer')('POST', '/question-banks', {
      name: 'From feedback',
      collectionId: defaultCollection,
    });
    expect(bank.status).toBe(201);
    bankId = bank.body.id;

    const undecided = await as('writer')('POST', '/feedback/to-bank', {
      bankId,
      entries: [{ feedbackId: feedbackIds.promote }],
    });
    expect(undecided.status).toBe(400);
    expect(messageText(undecided)).toContain('entries[0]: inScope is required');

    const readerTry = await as('reader')('POST', '/feedback/to-bank', {
      bankId,
      entries: [{ feedbackId: feedbackIds.backups }],
    });
    expect(readerTry.status).toBe(403);
    const foreign = await as('writer')('POST', '/feedback/to-bank', {
      bankId,
      entries: [{ feedbackId: feedbackIds.admin, inScope: true }],
    });
    expect(foreign.status).toBe(404);

    // One bad source: nothing is written, nothing is marked reviewed.
    const unknownChunk = randomUUID();
    const halfBad = await as('writer')('POST', '/feedback/to-bank', {
      bankId,
      entries: [
        { feedbackId: feedbackIds.backups },
        { feedbackId: feedbackIds.painters, expectedSources: [{ chunkId: unknownChunk }] },
      ],
    });
    expect(halfBad.status).toBe(400);
    expect(messageText(halfBad)).toContain(`entries[1]: unknown chunk "${unknownChunk}"`);
    expect((await as('writer')('GET', `/question-banks/${bankId}/items`)).body.total).toBe(0);
    expect((await admin('GET', '/feedback?unreviewed=true')).body.total).toBe(5);

    const confirmed = answers.promote.citations[0].chunkId;
    const made = await as('writer')('POST', '/feedback/to-bank', {
      bankId,
      entries: [
        { feedbackId: feedbackIds.backups },
        {
          feedbackId: feedbackIds.promote,
          inScope: true,
          expectedSources: [{ chunkId: confirmed }],
          tags: ['failover'],
          difficulty: 'easy',
        },
        { feedbackId: feedbackIds.archiving, inScope: true },
      ],
    });
    expect(made.status).toBe(200);
    expect(made.body.items.map((item: Json) => item.feedbackId)).toEqual([
      feedbackIds.backups,
      feedbackIds.promote,
      feedbackIds.archiving,
    ]);

    const items = (await as('writer')('GET', `/question-banks/${bankId}/items`)).body.items;
    expect(items).toHaveLength(3);
    const [outOfScope, wrong, incomplete] = items;
    expect(outOfScope).toMatchObject({
      id: made.body.items[0].itemId,
      question: 'When do the nightly base backups run?',
      inScope: false,
      expectedSources: [],
      expectedAnswer: null,
      source: 'feedback',
    });
    expect(wrong).toMatchObject({
      question: 'How do I promote the standby replica?',
      inScope: true,
      expectedSources: [{ chunkId: confirmed, documentId: answers.promote.citations[0].documentId }],
      expectedAnswer: 'Promote it with pg_ctl promote, then repoint the application connection string',
      source: 'feedback',
      feedbackId: feedbackIds.promote,
      tags: ['failover'],
      difficulty: 'easy',
      language: 'en',
    });
    // No sources confirmed: the passages the answer cited are proposed.
    expect(incomplete.expectedSources.map((source: Json) => source.chunkId).sort()).toEqual(
      [...new Set(answers.archiving.citations.map((citation) => citation.chunkId))].sort(),
    );
    expect(incomplete.expectedAnswer).toBe('Seven days');
    const links: { id: string; feedback_id: string }[] = await dataSource.query(
      `SELECT id, feedback_id FROM question_bank_items WHERE bank_id = $1 ORDER BY seq`,
      [bankId],
    );
    expect(links.map((link) => link.feedback_id)).toEqual([
      feedbackIds.backups,
      feedbackIds.promote,
      feedbackIds.archiving,
    ]);

    const queue = await as('writer')('GET', '/feedback?limit=100');
    const byId = new Map(queue.body.items.map((item: Json) => [item.feedback.id, item]));
    expect(byId.get(feedbackIds.promote)).toMatchObject({
      reviewed: true,
      bankItem: { id: wrong.id, bankId },
      feedback: { reviewedAt: expect.any(String) },
    });
    expect((byId.get(feedbackIds.painters) as Json).reviewed).toBe(false);

    // Reviewed without an item.
    const reviewed = await as('writer')('POST', `/feedback/${feedbackIds.painters}/review`);
    expect(reviewed.status).toBe(200);
    expect(reviewed.body).toMatchObject({ id: feedbackIds.painters, reviewedAt: expect.any(String) });
    expect((await as('writer')('GET', '/feedback?unreviewed=true')).body.total).toBe(0);
    // The rater still sees its own rating, unchanged.
    const own = await as('reader')('GET', `/messages/${answers.promote.answerId}/feedback`);
    expect(own.body).toMatchObject({ rating: 'down', reviewedAt: expect.any(String) });
  });

  it("evaluates the bank built from feedback as an ordinary run, with each item's outcome", async () => {
    const run = await runToEnd(bankId);
    expect(run.status).toBe('completed');
    const items = (await as('writer')('GET', `/question-banks/${bankId}/items`)).body.items;
    const outcome = new Map(run.perItem.map((result: Json) => [result.itemId, result]));
    const [outOfScope, wrong] = items;
    expect(outcome.get(outOfScope.id)).toMatchObject({
      question: 'When do the nightly base backups run?',
      inScope: false,
      refused: expect.any(Boolean),
    });
    expect(outcome.get(wrong.id)).toMatchObject({
      question: 'How do I promote the standby replica?',
      inScope: true,
      level: 'chunk',
      firstRelevantRank: expect.any(Number),
    });
    expect(run.perItem).toHaveLength(3);
  });

  it('deletes a conversation with its feedback; the bank item keeps its question and drops the link', async () => {
    const gone = await as('reader')('DELETE', `/conversations/${answers.promote.conversationId}`);
    expect(gone.status).toBe(204);
    const rows = await dataSource.query(`SELECT id FROM message_feedback WHERE id = $1`, [
      feedbackIds.promote,
    ]);
    expect(rows).toEqual([]);
    const [item] = await dataSource.query(
      `SELECT question, feedback_id FROM question_bank_items WHERE bank_id = $1 AND question LIKE 'How do I promote%'`,
      [bankId],
    );
    expect(item).toEqual({ question: 'How do I promote the standby replica?', feedback_id: null });
    const items = (await as('writer')('GET', `/question-banks/${bankId}/items`)).body.items;
    expect(items.map((listed: Json) => listed.feedbackId)).toEqual([
      feedbackIds.backups,
      null,
      feedbackIds.archiving,
    ]);
    expect((await admin('GET', '/feedback')).body.total).toBe(4);
  });

  it('counts answers, not-found answers, general-knowledge requests and ratings in /metrics', async () => {
    const general = await as('reader')('POST', '/chat/general', {
      conversationId: answers.painters.conversationId,
      messageId: answers.painters.answerId,
    });
    expect(general.status).toBe(503);
    const after = await scrape();
    const moved = (series: string) => seriesValue(after, series) - seriesValue(metricsBefore, series);
    expect(moved('lumina_general_knowledge_requests_total')).toBe(1);
    // Every rating of this suite: up once (the first), down/wrong twice (replacing it, then again), ...
    expect(moved('lumina_feedback_total{rating="up",reason="none"}')).toBe(1);
    expect(moved('lumina_feedback_total{rating="down",reason="wrong"}')).toBe(2);
    expect(moved('lumina_feedback_total{rating="down",reason="wrongly_refused"}')).toBe(2);
    expect(moved('lumina_feedback_total{rating="down",reason="should_have_refused"}')).toBe(1);
    expect(moved('lumina_feedback_total{rating="down",reason="incomplete"}')).toBe(2);
    // Five answers, each counted once: the painters one (and any other refusal) as not found.
    const given = [...Object.values(answers), adminAnswer];
    const refusals = given.filter((answer) => answer.notFound).length;
    expect(refusals).toBeGreaterThanOrEqual(1);
    expect(moved('lumina_answers_total{not_found="true"}')).toBe(refusals);
    expect(moved('lumina_answers_total{not_found="false"}')).toBe(given.length - refusals);
    expect(after).toContain('# TYPE lumina_feedback_total counter');
  });
});
