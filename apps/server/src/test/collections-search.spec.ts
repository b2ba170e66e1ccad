import { DataSource } from 'typeorm';
import { SqlChunkSearch } from '../modules/rag/repositories/sql-chunk-search';
import { EMBEDDER } from '../providers/providers.module';
import { readJson } from './helpers/http';
import type { Json } from './helpers/http';
import { seedDocuments } from './helpers/seed-documents';
import { eventOf, postSse } from './helpers/sse-client';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { TEST_BACKEND } from './helpers/test-backend';
import { testEnv } from './helpers/test-env';

/**
 * Search and chat read the collections they are given: the passages, the BM25 statistics (idf of what
 * is searched) and the conversation's memory of them.
 */
describe(`search and chat scoped by collection (${TEST_BACKEND})`, () => {
  let server: TestApp;
  let dataSource: DataSource;
  let ops: string;
  let support: string;
  let defaults: string;

  const search = async (body: unknown) => {
    const response = await fetch(`${server.baseUrl}/rag/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await readJson(response) };
  };
  const get = async (path: string) => readJson(await fetch(`${server.baseUrl}${path}`));

  /** A new collection holding these documents (indexed by the app's own indexing). */
  const collectionWith = async (slug: string, documents: { title: string; text: string }[]) => {
    const [row] = await dataSource.query(
      `INSERT INTO collections (name, slug) VALUES ($1, $1) RETURNING id`,
      [slug],
    );
    const ids = await seedDocuments(dataSource, server.app.get(EMBEDDER), documents);
    await dataSource.query(`UPDATE documents SET collection_id = $2 WHERE id = ANY($1::uuid[])`, [
      ids,
      row.id,
    ]);
    await dataSource.query(`UPDATE chunks SET collection_id = $2 WHERE document_id = ANY($1::uuid[])`, [
      ids,
      row.id,
    ]);
    return row.id as string;
  };

  beforeAll(async () => {
    server = await startTestApp(testEnv());
    dataSource = server.app.get(DataSource);
    [{ id: defaults }] = await dataSource.query(`SELECT default_collection_id() AS id`);
    ops = await collectionWith('ops', [
      {
        title: 'Failover runbook',
        text: 'Promote the standby replica with pg_ctl promote, then repoint the writers at the new primary.',
      },
      { title: 'Paging', text: 'The on-call engineer acknowledges a page within five minutes.' },
    ]);
    support = await collectionWith('support', [
      {
        title: 'Refunds',
        text: 'A customer may ask for a refund within thirty days; the replica of the invoice is attached.',
      },
      {
        title: 'Replica invoices',
        text: 'Every replica invoice carries the replica number of the original.',
      },
    ]);
  });

  afterAll(async () => {
    await server.close();
  });

  it('returns only the named collections’ passages and says which were searched', async () => {
    const one = await search({ query: 'replica', collectionIds: [ops], settings: { ranker: 'bm25' } });
    expect(one.status).toBe(200);
    expect(one.body.collectionIds).toEqual([ops]);
    expect(one.body.results.map((hit: Json) => hit.documentTitle)).toEqual(['Failover runbook']);

    const both = await search({
      query: 'replica',
      collectionIds: [ops, support],
      settings: { ranker: 'bm25' },
    });
    expect(new Set(both.body.results.map((hit: Json) => hit.documentTitle))).toEqual(
      new Set(['Failover runbook', 'Refunds', 'Replica invoices']),
    );

    const all = await search({ query: 'replica', settings: { ranker: 'bm25' } });
    expect(new Set(all.body.collectionIds)).toEqual(new Set([defaults, ops, support]));
  });

  it('scores with the statistics of the searched collections only (idf of what is searched)', async () => {
    // "replica" is in one of the two ops passages but in every support passage: searched in ops alone it
    // is rare (idf ln 2), searched in both it is common (df 3 of 4), so the same passage scores lower.
    const index = new SqlChunkSearch(dataSource, { k1: 0.9, b: 0.4, efSearch: 40 });
    const [chunk] = await dataSource.query(
      `SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.title = 'Failover runbook'`,
    );
    const scoreIn = async (collectionIds: string[]) =>
      (await index.lexical('replica', 10, { collectionIds })).find((hit) => hit.chunkId === chunk.id)!.score;
    const alone = await scoreIn([ops]);
    const mixed = await scoreIn([ops, support]);
    expect(alone).toBeGreaterThan(mixed);
    const evidence = await index.termEvidence!('replica', [chunk.id], { collectionIds: [ops] });
    expect(evidence.corpus.chunks).toBe(2);
    expect(evidence.terms).toEqual([{ term: 'replica', qtf: 1, df: 1 }]);
    const both = await index.termEvidence!('replica', [chunk.id], { collectionIds: [ops, support] });
    expect(both.corpus.chunks).toBe(4);
    expect(both.terms).toEqual([{ term: 'replica', qtf: 1, df: 3 }]);
  });

  it('answers 404 for a collection that does not exist, and 400 for an empty list', async () => {
    const missing = await search({
      query: 'replica',
      collectionIds: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('No collection has the id 00000000-0000-4000-8000-000000000000.');
    const empty = await search({ query: 'replica', collectionIds: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toEqual([
      'collectionIds must name at least one collection (or be left out: every one)',
    ]);
  });

  it('a conversation keeps its collections: a follow-up searches them, and a trace records them', async () => {
    const first = await postSse(`${server.baseUrl}/chat`, {
      message: 'How do I promote the standby replica?',
      collectionIds: [ops],
    });
    expect(first.status).toBe(200);
    const done = eventOf(first.events, 'done');
    const conversation = await get(`/conversations/${done.conversationId}`);
    expect(conversation.collectionIds).toEqual([ops]);
    const trace = await get(`/messages/${done.messageId}/trace`);
    expect(trace.collectionIds).toEqual([ops]);

    // The follow-up names no collections: only ops is searched.
    const next = await postSse(`${server.baseUrl}/chat`, {
      message: 'What is attached to a refund about the replica?',
      conversationId: done.conversationId,
    });
    const passages = eventOf(next.events, 'retrieval').passages as Json[];
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.every((p) => ['Failover runbook', 'Paging'].includes(p.title))).toBe(true);

    // Naming others switches the conversation to them.
    const switched = await postSse(`${server.baseUrl}/chat`, {
      message: 'What is attached to a refund?',
      conversationId: done.conversationId,
      collectionIds: [support],
    });
    expect(eventOf(switched.events, 'retrieval').passages.map((p: Json) => p.title)).toContain('Refunds');
    expect((await get(`/conversations/${done.conversationId}`)).collectionIds).toEqual([support]);
  });
  it('a user key reads only its granted collections: the rest answer 404 as if they did not exist', async () => {
    const created = await fetch(`${server.baseUrl}/auth/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Ops only',
        role: 'user',
        grants: [{ collectionId: ops, access: 'read' }],
      }),
    });
    expect(created.status).toBe(201);
    const key = (await readJson(created)).key as string;
    const asUser = async (path: string, body?: unknown) => {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await readJson(response) };
    };

    const me = await asUser('/auth/me');
    expect(me.body.grants).toEqual([{ collectionId: ops, access: 'read' }]);

    const everything = await asUser('/rag/search', { query: 'replica', settings: { ranker: 'bm25' } });
    expect(everything.status).toBe(200);
    expect(everything.body.collectionIds).toEqual([ops]);
    expect(everything.body.results.map((hit: Json) => hit.documentTitle)).toEqual(['Failover runbook']);

    const foreign = await asUser('/rag/search', { query: 'replica', collectionIds: [support] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(`No collection has the id ${support}.`);

    const chat = await postSse(
      `${server.baseUrl}/chat`,
      { message: 'What is attached to a refund?', collectionIds: [support] },
      { headers: { 'x-api-key': key } },
    );
    expect(chat.status).toBe(404);
    const own = await postSse(
      `${server.baseUrl}/chat`,
      { message: 'What is attached to a refund about the replica?' },
      { headers: { 'x-api-key': key } },
    );
    const passages = eventOf(own.events, 'retrieval').passages as Json[];
    expect(passages.every((p) => ['Failover runbook', 'Paging'].includes(p.title))).toBe(true);
  });
});
