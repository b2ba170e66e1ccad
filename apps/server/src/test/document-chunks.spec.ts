import { DataSource } from 'typeorm';
import type { Json } from './helpers/http';
import { seedDocuments } from './helpers/seed-documents';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/**
 * GET /documents/:id/chunks?chunk=<id>: the page of the passage list that holds a cited passage; GET
 * /chunks/:id: one passage with its neighbours.
 */
describe('a document’s passages, opened at a chunk (embedded PGlite)', () => {
  let server: TestApp;
  let documentId: string;
  let otherDocumentId: string;
  let ordered: { id: string; ordinal: number }[];

  const get = async (path: string): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${server.baseUrl}${path}`);
    return { status: response.status, body: await response.json() };
  };

  beforeAll(async () => {
    server = await startTestApp(testEnv());
    const dataSource = server.app.get(DataSource);
    const sections = Array.from(
      { length: 12 },
      (_, i) => `# Section ${i + 1}\n\nParagraph ${i + 1} talks about topic number ${i + 1} at some length.`,
    );
    [documentId, otherDocumentId] = await seedDocuments(
      dataSource,
      null,
      [
        { title: 'Many sections', format: 'markdown', text: sections.join('\n\n') },
        { title: 'Another', text: 'A different document with its own passage.' },
      ],
      { unit: 'chunk', maxChars: 80, overlapChars: 0 },
    );
    ordered = await dataSource.query(
      `SELECT id, ordinal FROM chunks WHERE document_id = $1 ORDER BY ordinal`,
      [documentId],
    );
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
  });

  it('answers the page that holds the chunk, with the chunk on it', async () => {
    expect(ordered.length).toBeGreaterThanOrEqual(10);
    for (const at of [0, 2, 3, ordered.length - 1]) {
      const target = ordered[at];
      const answer = await get(`/documents/${documentId}/chunks?chunk=${target.id}&limit=3`);
      expect(answer.status).toBe(200);
      expect(answer.body.page).toBe(Math.floor(at / 3) + 1);
      expect(answer.body.items.map((chunk: Json) => chunk.id)).toContain(target.id);
      expect(answer.body).toMatchObject({ limit: 3, total: ordered.length });
    }
  });

  it('refuses a chunk of another document (404), a chunk that is not a UUID and page with chunk (400)', async () => {
    const [other] = (await get(`/documents/${otherDocumentId}/chunks`)).body.items;
    const foreign = await get(`/documents/${documentId}/chunks?chunk=${other.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toMatch(/is not a passage of document/);
    expect((await get(`/documents/${documentId}/chunks?chunk=${UNKNOWN}`)).status).toBe(404);
    const notUuid = await get(`/documents/${documentId}/chunks?chunk=abc`);
    expect(notUuid.status).toBe(400);
    expect(JSON.stringify(notUuid.body.message)).toMatch(/chunk must be a chunk id/);
    const both = await get(`/documents/${documentId}/chunks?chunk=${ordered[0].id}&page=2`);
    expect(both.status).toBe(400);
    expect(JSON.stringify(both.body.message)).toMatch(/give page or chunk, not both/);
  });

  it('GET /chunks/:id answers the passage, its document and its neighbours in reading order', async () => {
    const at = 4;
    const wide = await get(`/chunks/${ordered[at].id}?neighbours=2`);
    expect(wide.status).toBe(200);
    expect(wide.body.chunk).toMatchObject({ id: ordered[at].id, ordinal: at });
    expect(wide.body.document).toEqual({
      id: documentId,
      title: 'Many sections',
      collectionId: expect.any(String),
    });
    expect(wide.body.before.map((chunk: Json) => chunk.id)).toEqual([ordered[2].id, ordered[3].id]);
    expect(wide.body.after.map((chunk: Json) => chunk.id)).toEqual([ordered[5].id, ordered[6].id]);
    // The same fields as the document's passage list.
    const [listed] = (await get(`/documents/${documentId}/chunks?page=${at + 1}&limit=1`)).body.items;
    expect(wide.body.chunk).toEqual(listed);

    const narrow = await get(`/chunks/${ordered[at].id}`);
    expect(narrow.body.before.map((chunk: Json) => chunk.id)).toEqual([ordered[3].id]);
    expect(narrow.body.after.map((chunk: Json) => chunk.id)).toEqual([ordered[5].id]);
    const alone = await get(`/chunks/${ordered[at].id}?neighbours=0`);
    expect([alone.body.before, alone.body.after]).toEqual([[], []]);
    const first = await get(`/chunks/${ordered[0].id}?neighbours=5`);
    expect(first.body.before).toEqual([]);
    expect(first.body.after).toHaveLength(5);
    const last = await get(`/chunks/${ordered[ordered.length - 1].id}?neighbours=3`);
    expect(last.body.after).toEqual([]);
    expect(last.body.before.map((chunk: Json) => chunk.ordinal)).toEqual([
      ordered.length - 4,
      ordered.length - 3,
      ordered.length - 2,
    ]);
  });

  it('GET /chunks/:id: 404 for an unknown chunk, 400 for an id that is not a UUID or a bad neighbours', async () => {
    const unknown = await get(`/chunks/${UNKNOWN}`);
    expect(unknown).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(unknown.body.message).toBe(`No chunk has the id ${UNKNOWN}.`);
    expect((await get('/chunks/abc')).status).toBe(400);
    for (const [query, reason] of [
      ['neighbours=6', /neighbours must be at most 5/],
      ['neighbours=-1', /neighbours must be 0 or more/],
      ['neighbours=two', /neighbours must be an integer/],
      ['neighbours=1.5', /neighbours must be an integer/],
      ['near=1', /property near should not exist/],
    ] as const) {
      const answer = await get(`/chunks/${ordered[0].id}?${query}`);
      expect({ query, status: answer.status }).toEqual({ query, status: 400 });
      expect(JSON.stringify(answer.body.message)).toMatch(reason);
    }
  });
});
