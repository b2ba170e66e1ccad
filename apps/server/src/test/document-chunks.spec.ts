import { DataSource } from 'typeorm';
import type { Json } from './helpers/http';
import { seedDocuments } from './helpers/seed-documents';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** GET /documents/:id/chunks?chunk=<id>: the page of the passage list that holds a cited passage. */
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
});
