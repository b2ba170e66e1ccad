import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { Env } from '../config/env.schema';
import { getJson, indexTexts, postJson, waitForStatus } from './fixtures/ingestion/ingestion-client';
import type { Json } from './helpers/http';
import { RUNBOOK_CORPUS } from './helpers/seed-documents';
import { eventOf, eventOrder, postSse } from './helpers/sse-client';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

const QUERIES = [
  'how do I promote the standby replica',
  'what holds the job queues',
  'why did failover take long',
];

/** Everything a restart must keep, read straight from the tables. */
async function inventory(dataSource: DataSource): Promise<Json> {
  const [documents, chunks, conversations, messages, migrations, bm25, feedback] = await Promise.all([
    dataSource.query(`SELECT id, title, status, chunk_count FROM documents ORDER BY id`),
    dataSource.query(
      `SELECT id, document_id, ordinal, md5(text) AS text, md5(embedding::text) AS embedding, embedding_model
       FROM chunks ORDER BY id`,
    ),
    dataSource.query(`SELECT id, title FROM conversations ORDER BY id`),
    dataSource.query(
      `SELECT id, conversation_id, role, status, md5(content) AS content FROM messages ORDER BY id`,
    ),
    dataSource.query(`SELECT id, name, timestamp FROM migrations ORDER BY id`),
    dataSource.query(`SELECT chunk_count, total_length FROM bm25_corpus`),
    dataSource.query(
      `SELECT id, message_id, rating, reasons, note, reviewed_at FROM message_feedback ORDER BY id`,
    ),
  ]);
  return { documents, chunks, conversations, messages, migrations, bm25, feedback };
}

/**
 * The one-command mode keeps its database in PGLITE_DATA_DIR: an app closed cleanly and started again on
 * the same directory finds its documents, chunks, vectors, conversations and messages, and does not run
 * (or undo) migrations again.
 */
describe('the server restarted on the same embedded database directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lumina-fault-pglite-'));
  const uploadDir = mkdtempSync(join(tmpdir(), 'lumina-fault-pglite-uploads-'));
  let env: Env;
  let server: TestApp | undefined;

  const search = async (query: string): Promise<Json> => {
    const { status, body } = await postJson(`${server!.baseUrl}/rag/search`, { query });
    expect(status).toBe(200);
    return body.results.map((r: Json) => ({ chunkId: r.chunkId, title: r.documentTitle, score: r.score }));
  };

  beforeAll(() => {
    env = testEnv({ PGLITE_DATA_DIR: dataDir, UPLOAD_DIR: uploadDir, WORKERS_IN_PROCESS: 'true' });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('keeps documents, chunks, vectors, conversations and messages, and searches the same', async () => {
    server = await startTestApp(env);
    const ids = await indexTexts(server.baseUrl, RUNBOOK_CORPUS);

    const first = await postSse(`${server.baseUrl}/chat`, {
      message: 'How do I promote the standby replica?',
    });
    expect(eventOrder(first.events)).toEqual(['retrieval', 'token', 'citations', 'done']);
    const { conversationId, messageId } = eventOf(first.events, 'done');
    // A rating given before the restart is reviewed after it.
    const rated = await postJson(`${server.baseUrl}/messages/${messageId}/feedback`, {
      rating: 'down',
      reasons: ['incomplete'],
      note: 'Repoint the writers too',
    });
    expect(rated.status).toBe(200);
    const resultsBefore = await Promise.all(QUERIES.map(search));
    expect(resultsBefore[0][0].title).toBe('Database runbook');
    const before = await inventory(server.app.get(DataSource));
    expect(before.documents).toHaveLength(4);
    expect(before.chunks.length).toBeGreaterThan(4);
    expect(before.chunks.every((chunk: Json) => chunk.embedding !== null)).toBe(true);
    expect(before.messages).toHaveLength(2);
    expect(before.feedback).toHaveLength(1);
    const conversationBefore = await getJson(`${server.baseUrl}/conversations/${conversationId}`);
    expect(conversationBefore.status).toBe(200);

    await server.close();
    server = undefined;

    // A new process over the same directory.
    server = await startTestApp(env);
    const after = await inventory(server.app.get(DataSource));
    expect(after).toEqual(before);
    expect(await Promise.all(QUERIES.map(search))).toEqual(resultsBefore);
    const conversationAfter = await getJson(`${server.baseUrl}/conversations/${conversationId}`);
    expect(conversationAfter).toEqual(conversationBefore);
    const queue = await getJson(`${server.baseUrl}/feedback?unreviewed=true`);
    expect(queue.body.items).toEqual([
      expect.objectContaining({
        feedback: expect.objectContaining({ id: rated.body.id, note: 'Repoint the writers too' }),
        question: 'How do I promote the standby replica?',
      }),
    ]);
    for (const id of ids) {
      expect((await getJson(`${server.baseUrl}/documents/${id}`)).body).toMatchObject({
        id,
        status: 'indexed',
      });
    }

    // The conversation goes on, and new documents are indexed next to the old ones.
    const followUp = await postSse(`${server.baseUrl}/chat`, {
      conversationId,
      message: 'When do backups run?',
    });
    expect(eventOrder(followUp.events)).toEqual(['retrieval', 'token', 'citations', 'done']);
    expect(eventOf(followUp.events, 'done').conversationId).toBe(conversationId);
    const added = await postJson(`${server.baseUrl}/documents/text`, {
      title: 'Paging policy',
      text: 'The on-call engineer is paged when the error budget burns faster than two percent an hour.',
    });
    expect(added.status).toBe(202);
    expect((await waitForStatus(server.baseUrl, added.body.id)).status).toBe('indexed');
    const [counts] = await server.app
      .get(DataSource)
      .query(
        `SELECT (SELECT count(*) FROM documents)::int AS documents, (SELECT count(*) FROM messages)::int AS messages`,
      );
    expect(counts).toEqual({ documents: 5, messages: 4 });
  }, 150_000);
});
