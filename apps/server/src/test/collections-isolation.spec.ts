import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { EMBEDDER } from '../providers/providers.module';
import { waitForStatus } from './fixtures/ingestion/ingestion-client';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';
import type { Json } from './helpers/http';
import { seedDocuments } from './helpers/seed-documents';
import { eventOf, postSse } from './helpers/sse-client';
import type { SseResponse } from './helpers/sse-client';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { TEST_BACKEND } from './helpers/test-backend';
import { testEnv } from './helpers/test-env';

const ADMIN_KEY = 'isolation-suite-admin-key-0123456789';

/** Words and names only collection B holds: none may reach a key that reads A alone. */
const B_SECRETS = [
  'bravo',
  'payroll',
  'zanzibar',
  'quillfeather',
  'salary',
  'passphrase',
  'gehalt',
  'tresor',
];

const A_DOCUMENTS = [
  {
    title: 'Failover runbook',
    text: 'Promote the standby replica with pg_ctl promote, then repoint the writers at the new primary.',
  },
  {
    title: 'Paging policy',
    text: 'The on-call engineer acknowledges a page within five minutes and opens an incident channel.',
  },
];
// Both share "replica" with A, so a search or chat that forgot the key's scope would find them.
const B_DOCUMENTS = [
  {
    title: 'Payroll ledger',
    text: 'The payroll replica is encrypted with the zanzibar passphrase before it leaves the vault.',
  },
  {
    title: 'Salary bands',
    text: 'Every salary band of the quillfeather team is stored beside the payroll replica.',
  },
  // Only B holds a document in German: the languages of B's documents are B's too.
  {
    title: 'Gehaltsabrechnung',
    text:
      'Die Gehaltsabrechnung wird jeden Monat verschlüsselt und zusammen mit der Kopie der Datenbank ' +
      'im Tresor aufbewahrt. Nur die Buchhaltung darf sie öffnen.',
  },
];

interface Reply {
  status: number;
  body: Json;
  contentType: string | null;
}

/** One request: JSON (or a multipart form) in; JSON, or text for markdown and metrics, out. */
interface Request {
  method: string;
  path: string;
  body?: unknown;
  form?: () => FormData;
  headers?: Record<string, string>;
}

type UserKey = 'reader' | 'writer';

/**
 * Isolation of collections, endpoint by endpoint: a user key granted collection A (read, or write)
 * never sees collection B. Every id of B answers exactly as an id that does not exist (404, the same
 * sentence), never a 403 that would say it is there, and no body carries B's names, titles or words.
 */
describe(`collections isolation for user keys (keys mode, ${TEST_BACKEND})`, () => {
  const uploadDir = mkdtempSync(join(tmpdir(), 'lumina-isolation-'));
  let server: TestApp;
  let dataSource: DataSource;

  /** Collection ids, their documents' and chunks' ids, banks, and the admin key's conversations. */
  const A = { id: '', documents: [] as string[], chunks: [] as string[], bank: '', run: '', ablation: '' };
  const B = { id: '', documents: [] as string[], chunks: [] as string[], bank: '', run: '', ablation: '' };
  const adminChats = { A: { conversation: '', message: '' }, B: { conversation: '', message: '' } };
  const keys = {} as Record<UserKey | 'none', { id: string; key: string; name: string }>;
  /** Each user key's own conversation (in A). */
  const own = {} as Record<UserKey, { conversation: string; message: string }>;

  const send = async (key: string, request: Request): Promise<Reply> => {
    const form = request.form?.();
    const response = await fetch(`${server.baseUrl}${request.path}`, {
      method: request.method,
      headers: {
        'x-api-key': key,
        ...(form ? { 'x-lumina-client': 'test' } : {}),
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...request.headers,
      },
      body: form ?? (request.body === undefined ? undefined : JSON.stringify(request.body)),
    });
    const text = await response.text();
    let body: Json = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // markdown, metrics, HTML: kept as text
    }
    return { status: response.status, body, contentType: response.headers.get('content-type') };
  };
  const as = (who: UserKey | 'none') => (request: Request) => send(keys[who].key, request);
  const asAdmin = (request: Request) => send(ADMIN_KEY, request);
  const get = (path: string): Request => ({ method: 'GET', path });
  const post = (path: string, body?: unknown): Request => ({ method: 'POST', path, body });
  const chatAs = (key: string, body: unknown): Promise<SseResponse> =>
    postSse(`${server.baseUrl}/chat`, body, { headers: { 'x-api-key': key } });

  /** Every id of B's (and of the admin key's conversations) that a user key must never be shown. */
  const foreignIds = () => [
    B.id,
    ...B.documents,
    ...B.chunks,
    B.bank,
    ...(B.run ? [B.run] : []),
    ...(B.ablation ? [B.ablation] : []),
    adminChats.A.conversation,
    adminChats.A.message,
    adminChats.B.conversation,
    adminChats.B.message,
  ];
  /** Nothing of B in a body a user key was given: no id, no name, no title, no word of its text. */
  const expectNothingOfB = (body: unknown, label = '') => {
    const text = (typeof body === 'string' ? body : JSON.stringify(body)).toLowerCase();
    for (const secret of [...B_SECRETS, ...foreignIds()]) {
      expect({ label, leaked: text.includes(secret.toLowerCase()) ? secret : null }).toEqual({
        label,
        leaked: null,
      });
    }
  };
  /**
   * The request made with a foreign id answers exactly as the same request with an id nobody has: 404,
   * the same body once the id is masked, and no word of B.
   */
  const expectHidden = async (
    label: string,
    who: UserKey | 'none',
    foreignId: string,
    request: (id: string) => Request,
  ) => {
    const missingId = randomUUID();
    const foreign = await as(who)(request(foreignId));
    const missing = await as(who)(request(missingId));
    const masked = (reply: Reply, id: string) => JSON.stringify(reply.body).split(id).join('<id>');
    expect({ label, who, status: foreign.status }).toEqual({ label, who, status: 404 });
    expect({ label, who, status: missing.status }).toEqual({ label, who, status: 404 });
    expect({ label, who, body: masked(foreign, foreignId) }).toEqual({
      label,
      who,
      body: masked(missing, missingId),
    });
    // The 404 was answered before a stream opened.
    expect({ label, type: foreign.contentType }).toEqual({
      label,
      type: expect.stringMatching(/^application\/json/),
    });
    expectNothingOfB(JSON.stringify(foreign.body).split(foreignId).join('<id>'), label);
  };

  /** A collection holding these documents, indexed by the app's own indexing and moved into it by SQL. */
  const collectionWith = async (
    target: typeof A,
    input: { name: string; slug: string; description: string },
    documents: { title: string; text: string }[],
  ) => {
    const created = await asAdmin(post('/collections', input));
    expect(created.status).toBe(201);
    target.id = created.body.id;
    target.documents = await seedDocuments(dataSource, server.app.get(EMBEDDER), documents);
    await dataSource.query(`UPDATE documents SET collection_id = $2 WHERE id = ANY($1::uuid[])`, [
      target.documents,
      target.id,
    ]);
    await dataSource.query(`UPDATE chunks SET collection_id = $2 WHERE document_id = ANY($1::uuid[])`, [
      target.documents,
      target.id,
    ]);
    const chunks: { id: string }[] = await dataSource.query(
      // In the documents' order: chunks[0] is a passage of documents[0].
      `SELECT id FROM chunks WHERE document_id = ANY($1::uuid[])
       ORDER BY array_position($1::uuid[], document_id), ordinal`,
      [target.documents],
    );
    target.chunks = chunks.map((chunk) => chunk.id);
  };
  const adminChat = async (collectionId: string, message: string) => {
    const answer = await chatAs(ADMIN_KEY, { message, collectionIds: [collectionId] });
    expect(answer.status).toBe(200);
    const done = eventOf(answer.events, 'done');
    return { conversation: done.conversationId as string, message: done.messageId as string };
  };
  const createKey = async (name: string, grants: { collectionId: string; access: string }[]) => {
    const created = await asAdmin(post('/auth/keys', { name, role: 'user', grants }));
    expect(created.status).toBe(201);
    return { id: created.body.id as string, key: created.body.key as string, name };
  };
  const roleMessage = (who: UserKey | 'none') =>
    `This needs an admin API key; "${keys[who].name}" is a user key.`;
  const textFile = (collectionId: string, name: string, text: string) => () => {
    const form = new FormData();
    form.append('collectionId', collectionId);
    form.append('files', new Blob([text], { type: 'text/plain' }), name);
    return form;
  };

  beforeAll(async () => {
    server = await startTestApp(
      testEnv({ ADMIN_API_KEY: ADMIN_KEY, UPLOAD_DIR: uploadDir, EMBEDDINGS_PROVIDER: 'hash' }),
    );
    dataSource = server.app.get(DataSource);
    await collectionWith(
      A,
      { name: 'Alpha Runbooks', slug: 'alpha-runbooks', description: 'Failover and paging.' },
      A_DOCUMENTS,
    );
    await collectionWith(
      B,
      { name: 'Bravo Vault', slug: 'bravo-vault', description: 'Quarterly payroll ledgers.' },
      B_DOCUMENTS,
    );
    for (const [target, name] of [
      [A, 'Alpha questions'],
      [B, 'Bravo payroll questions'],
    ] as const) {
      const bank = await asAdmin(post('/question-banks', { name, collectionId: target.id }));
      expect(bank).toMatchObject({ status: 201, body: { collectionId: target.id } });
      target.bank = bank.body.id;
      const item = await asAdmin(
        post(`/question-banks/${target.bank}/items`, {
          question:
            name === 'Alpha questions' ? 'How is the standby promoted?' : 'Which vault holds payroll?',
          expectedSources: [{ documentId: target.documents[0] }],
        }),
      );
      expect(item.status).toBe(201);
      const run = await asAdmin(
        post(`/question-banks/${target.bank}/evaluate`, { settings: { ranker: 'bm25' } }),
      );
      expect(run.status).toBe(202);
      target.run = run.body.id;
      const ablation = await asAdmin(post(`/question-banks/${target.bank}/ablation`, {}));
      expect(ablation.status).toBe(202);
      target.ablation = ablation.body.id;
    }
    adminChats.A = await adminChat(A.id, 'How is the standby replica promoted?');
    adminChats.B = await adminChat(B.id, 'Which passphrase protects the payroll replica?');
    // A rating of B's answer, with its note: the review queue of a key of A must never show it.
    const rated = await asAdmin(
      post(`/messages/${adminChats.B.message}/feedback`, { rating: 'down', note: 'The zanzibar passphrase' }),
    );
    expect(rated.status).toBe(200);
    keys.reader = await createKey('Reader of A', [{ collectionId: A.id, access: 'read' }]);
    keys.writer = await createKey('Writer of A', [{ collectionId: A.id, access: 'write' }]);
    keys.none = await createKey('No grants', []);
    for (const who of ['reader', 'writer'] as const) {
      const answer = await chatAs(keys[who].key, { message: 'How do I promote the replica?' });
      expect(answer.status).toBe(200);
      const done = eventOf(answer.events, 'done');
      own[who] = { conversation: done.conversationId, message: done.messageId };
    }
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('GET /metrics (admin) gives each collection its documents, chunks and searches, labelled by id', async () => {
    const before = await asAdmin(get('/metrics'));
    const searchesOf = (text: string, id: string) =>
      Number(
        new RegExp(`^lumina_collection_searches_total\\{collection="${id}"\\} (\\d+)`, 'm').exec(text)?.[1] ??
          0,
      );
    const searched = await asAdmin(post('/rag/search', { query: 'replica', collectionIds: [A.id] }));
    expect(searched.status).toBe(200);
    const metrics = (await asAdmin(get('/metrics'))).body as string;
    expect(metrics).toContain(
      `lumina_collection_info{collection="${A.id}",slug="alpha-runbooks",deleting="false"} 1`,
    );
    expect(metrics).toContain(
      `lumina_collection_documents{collection="${B.id}",status="indexed"} ${B_DOCUMENTS.length}`,
    );
    expect(metrics).toContain(`lumina_collection_chunks{collection="${A.id}"} ${A.chunks.length}`);
    expect(searchesOf(metrics, A.id)).toBe(searchesOf(before.body as string, A.id) + 1);
    expect(searchesOf(metrics, B.id)).toBe(searchesOf(before.body as string, B.id));
  });

  it('the admin key sees both collections (the fixture holds what the user keys must not see)', async () => {
    const listed = await asAdmin(get('/collections?limit=100'));
    expect(listed.body.items.map((c: Json) => c.id)).toEqual(expect.arrayContaining([A.id, B.id]));
    const documents = await asAdmin(get(`/documents?collectionId=${B.id}`));
    expect(documents.body.total).toBe(B_DOCUMENTS.length);
    const unscoped = await asAdmin(post('/rag/search', { query: 'replica', settings: { ranker: 'bm25' } }));
    const found = unscoped.body.results.map((hit: Json) => hit.documentId);
    // B's English documents hold "replica" too.
    expect(found).toEqual(expect.arrayContaining([A.documents[0], B.documents[0], B.documents[1]]));
    expect(B.chunks.length).toBeGreaterThan(0);
    const languages = await dataSource.query(
      `SELECT DISTINCT collection_id AS collection, language FROM documents
       WHERE collection_id = ANY($1::uuid[])`,
      [[A.id, B.id]],
    );
    expect(languages).toHaveLength(3);
    expect(languages).toEqual(
      expect.arrayContaining([
        { collection: A.id, language: 'en' },
        { collection: B.id, language: 'en' },
        { collection: B.id, language: 'de' },
      ]),
    );
  });

  describe.each(['reader', 'writer'] as const)('a key with %s access to A', (who) => {
    const call = (request: Request) => as(who)(request);

    it('lists only collection A, and answers B as if it did not exist', async () => {
      const listed = await call(get('/collections?limit=100'));
      expect(listed.status).toBe(200);
      expect(listed.body).toMatchObject({ total: 1, totalPages: 1 });
      expect(listed.body.items.map((c: Json) => c.id)).toEqual([A.id]);
      expectNothingOfB(listed.body);
      expect((await call(get('/collections?search=Bravo'))).body).toMatchObject({ total: 0, items: [] });
      expect(await call(get(`/collections/${A.id}`))).toMatchObject({
        status: 200,
        body: { id: A.id, name: 'Alpha Runbooks' },
      });
    });

    it('lists and reads only the documents of A', async () => {
      const listed = await call(get('/documents?limit=100'));
      expect(listed.status).toBe(200);
      expect(listed.body.total).toBe(A.documents.length);
      expect(new Set(listed.body.items.map((d: Json) => d.id))).toEqual(new Set(A.documents));
      expectNothingOfB(listed.body);
      expect((await call(get('/documents?search=payroll'))).body.total).toBe(0);
      const inA = await call(get(`/documents?collectionId=${A.id}`));
      expect(inA.body.total).toBe(A.documents.length);
      expect(await call(get(`/documents/${A.documents[0]}`))).toMatchObject({
        status: 200,
        body: { collectionId: A.id, title: 'Failover runbook' },
      });
      const chunks = await call(get(`/documents/${A.documents[0]}/chunks?chunk=${A.chunks[0]}`));
      expect(chunks.status).toBe(200);
      expect(chunks.body.items.map((c: Json) => c.id)).toContain(A.chunks[0]);
      expect(await call(get(`/chunks/${A.chunks[0]}`))).toMatchObject({
        status: 200,
        body: { chunk: { id: A.chunks[0] }, document: { id: A.documents[0], collectionId: A.id } },
      });
    });

    // Each request with one of B's ids (or another key's conversation) against the same request with an
    // id nobody has. Add a row for each new route that takes an id.
    const hidden: [string, () => string, (id: string) => Request][] = [
      ['GET /collections/:id', () => B.id, (id) => get(`/collections/${id}`)],
      ['GET /documents?collectionId', () => B.id, (id) => get(`/documents?collectionId=${id}`)],
      ['GET /documents/:id', () => B.documents[0], (id) => get(`/documents/${id}`)],
      ['GET /documents/:id/chunks', () => B.documents[0], (id) => get(`/documents/${id}/chunks`)],
      [
        "GET /documents/:id/chunks?chunk= (B's document)",
        () => B.documents[0],
        (id) => get(`/documents/${id}/chunks?chunk=${B.chunks[0]}`),
      ],
      [
        "GET /documents/:id/chunks?chunk= (A's document, B's chunk)",
        () => B.chunks[0],
        (id) => get(`/documents/${A.documents[0]}/chunks?chunk=${id}`),
      ],
      ['GET /chunks/:id', () => B.chunks[0], (id) => get(`/chunks/${id}`)],
      ['GET /chunks/:id?neighbours=5', () => B.chunks[0], (id) => get(`/chunks/${id}?neighbours=5`)],
      [
        'GET /documents/:id/events',
        () => B.documents[0],
        (id) => ({ ...get(`/documents/${id}/events`), headers: { accept: 'text/event-stream' } }),
      ],
      [
        'DELETE /documents/:id',
        () => B.documents[1],
        (id) => ({ method: 'DELETE', path: `/documents/${id}` }),
      ],
      [
        "POST /documents/:id/move (B's document into A)",
        () => B.documents[0],
        (id) => post(`/documents/${id}/move`, { collectionId: A.id }),
      ],
      [
        "POST /documents/:id/move (A's document into B)",
        () => B.id,
        (id) => post(`/documents/${A.documents[0]}/move`, { collectionId: id }),
      ],
      [
        'POST /documents/text into B',
        () => B.id,
        (id) => post('/documents/text', { title: 'Planted', text: 'A planted note.', collectionId: id }),
      ],
      [
        'POST /documents (a file) into B',
        () => B.id,
        (id) => ({
          method: 'POST',
          path: '/documents',
          form: textFile(id, 'planted.txt', 'A planted file.'),
        }),
      ],
      [
        'POST /rag/search [B]',
        () => B.id,
        (id) => post('/rag/search', { query: 'replica', collectionIds: [id] }),
      ],
      [
        'POST /rag/search [A, B]',
        () => B.id,
        (id) => post('/rag/search', { query: 'replica', collectionIds: [A.id, id] }),
      ],
      [
        'POST /chat [B]',
        () => B.id,
        (id) => ({
          ...post('/chat', { message: 'What protects the replica?', collectionIds: [id] }),
          headers: { accept: 'text/event-stream' },
        }),
      ],
      [
        'POST /chat [A, B]',
        () => B.id,
        (id) => ({
          ...post('/chat', { message: 'What protects the replica?', collectionIds: [A.id, id] }),
          headers: { accept: 'text/event-stream' },
        }),
      ],
      [
        'POST /chat: a follow-up in its own conversation, naming B',
        () => B.id,
        (id) => ({
          ...post('/chat', {
            message: 'And the encrypted one?',
            conversationId: own[who].conversation,
            collectionIds: [id],
          }),
          headers: { accept: 'text/event-stream' },
        }),
      ],
      ...(['A', 'B'] as const).flatMap((c): [string, () => string, (id: string) => Request][] => [
        [
          `POST /chat: a follow-up in the admin key's conversation in ${c}`,
          () => adminChats[c].conversation,
          (id) => ({
            ...post('/chat', { message: 'And then?', conversationId: id }),
            headers: { accept: 'text/event-stream' },
          }),
        ],
        [
          `POST /chat: its own conversation, replacing a message of the admin key's in ${c}`,
          () => adminChats[c].message,
          (id) => ({
            ...post('/chat', {
              message: 'Mine now?',
              conversationId: own[who].conversation,
              replaceMessageId: id,
            }),
            headers: { accept: 'text/event-stream' },
          }),
        ],
        [
          `POST /chat/general: its own conversation, a message of the admin key's in ${c}`,
          () => adminChats[c].message,
          (id) => ({
            ...post('/chat/general', { conversationId: own[who].conversation, messageId: id }),
            headers: { accept: 'text/event-stream' },
          }),
        ],
        [
          `POST /chat/general in the admin key's conversation in ${c}`,
          () => adminChats[c].conversation,
          (id) => ({
            ...post('/chat/general', { conversationId: id, messageId: adminChats[c].message }),
            headers: { accept: 'text/event-stream' },
          }),
        ],
        [
          `GET /conversations/:id (admin's, ${c})`,
          () => adminChats[c].conversation,
          (id) => get(`/conversations/${id}`),
        ],
        [
          `GET /conversations/:id/export (admin's, ${c})`,
          () => adminChats[c].conversation,
          (id) => get(`/conversations/${id}/export`),
        ],
        [
          `PATCH /conversations/:id (admin's, ${c})`,
          () => adminChats[c].conversation,
          (id) => ({ method: 'PATCH', path: `/conversations/${id}`, body: { title: 'Mine now' } }),
        ],
        [
          `DELETE /conversations/:id (admin's, ${c})`,
          () => adminChats[c].conversation,
          (id) => ({ method: 'DELETE', path: `/conversations/${id}` }),
        ],
        [
          `GET /messages/:id/trace (admin's, ${c})`,
          () => adminChats[c].message,
          (id) => get(`/messages/${id}/trace`),
        ],
        [
          `POST /messages/:id/feedback (admin's, ${c})`,
          () => adminChats[c].message,
          (id) => post(`/messages/${id}/feedback`, { rating: 'down', reasons: ['wrong'] }),
        ],
        [
          `GET /messages/:id/feedback (admin's, ${c})`,
          () => adminChats[c].message,
          (id) => get(`/messages/${id}/feedback`),
        ],
        [
          `DELETE /messages/:id/feedback (admin's, ${c})`,
          () => adminChats[c].message,
          (id) => ({ method: 'DELETE', path: `/messages/${id}/feedback` }),
        ],
      ]),
    ];

    it.each(hidden)('%s: 404 as for an id that does not exist', async (label, foreignId, request) => {
      await expectHidden(label, who, foreignId(), request);
    });

    it('searches only A when it names no collections, and says so', async () => {
      for (const settings of [
        { ranker: 'bm25' },
        { ranker: 'hybrid' },
        // Pseudo-relevance feedback expands the query from the first results: from A's only.
        { ranker: 'hybrid', enableQueryExpansion: true, enableHyDE: true },
      ]) {
        const search = await call(post('/rag/search', { query: 'replica', settings }));
        expect(search.status).toBe(200);
        expect(search.body.collectionIds).toEqual([A.id]);
        expect(search.body.results.length).toBeGreaterThan(0);
        for (const hit of search.body.results) expect(A.documents).toContain(hit.documentId);
        expectNothingOfB(search.body, JSON.stringify(settings));
      }
      const named = await call(post('/rag/search', { query: 'replica', collectionIds: [A.id] }));
      expect(named.body.collectionIds).toEqual([A.id]);
      // Naming B's documents in the settings finds nothing: the scope is the key's, whatever else is asked.
      const documents = await call(
        post('/rag/search', { query: 'encrypted replica', settings: { documentIds: B.documents } }),
      );
      expect(documents).toMatchObject({ status: 200, body: { collectionIds: [A.id], results: [] } });
      expectNothingOfB(documents.body.results);
    });

    it("tells the question's language against A's documents only, never B's languages", async () => {
      // B holds German, A only English: a German question is in no language A holds, and a French one
      // is answered with A's languages alone.
      for (const query of [
        'Wie wird die Abrechnung jeden Monat verschlüsselt?',
        'Comment la copie de la base de données est-elle chiffrée chaque mois ?',
      ]) {
        const search = await call(post('/rag/search', { query, settings: { ranker: 'bm25' } }));
        expect(search.status).toBe(200);
        const languageWarnings = search.body.warnings.filter((w: string) => /looks like/.test(w));
        expect({ query, languageWarnings }).toEqual({
          query,
          languageWarnings: [expect.stringMatching(/no document is in \w+ \(documents: en\)/)],
        });
      }
    });

    it('chats in A only: the retrieval, the citations and the follow-up never hold B', async () => {
      const first = await chatAs(keys[who].key, {
        message: 'Which replica is promoted, and which is encrypted?',
      });
      expect(first.status).toBe(200);
      const retrieval = eventOf(first.events, 'retrieval');
      expect(retrieval.passages.length).toBeGreaterThan(0);
      for (const passage of retrieval.passages) expect(A.documents).toContain(passage.documentId);
      for (const citation of eventOf(first.events, 'citations')?.citations ?? []) {
        expect(A.documents).toContain(citation.documentId);
      }
      expectNothingOfB(first.events);
      const done = eventOf(first.events, 'done');

      const followUp = await chatAs(keys[who].key, {
        message: 'And the encrypted replica?',
        conversationId: done.conversationId,
      });
      expect(followUp.status).toBe(200);
      for (const passage of eventOf(followUp.events, 'retrieval').passages) {
        expect(A.documents).toContain(passage.documentId);
      }
      expectNothingOfB(followUp.events);
      // Naming B's documents in the settings finds nothing either.
      const documents = await chatAs(keys[who].key, {
        message: 'What protects the encrypted replica?',
        settings: { documentIds: B.documents },
      });
      expect(eventOf(documents.events, 'retrieval').passages).toEqual([]);

      const conversation = await call(get(`/conversations/${done.conversationId}`));
      expect(conversation).toMatchObject({ status: 200, body: { collectionIds: [A.id] } });
      const trace = await call(get(`/messages/${done.messageId}/trace`));
      expect(trace).toMatchObject({ status: 200, body: { collectionIds: [A.id] } });
      const exported = await call(get(`/conversations/${done.conversationId}/export`));
      expect(exported.status).toBe(200);
      for (const body of [trace.body, exported.body]) expectNothingOfB(body);
    });

    it("lists only its own conversations, none of the admin key's", async () => {
      const listed = await call(get('/conversations?limit=100'));
      expect(listed.status).toBe(200);
      const ids = listed.body.items.map((c: Json) => c.id);
      expect(ids).toContain(own[who].conversation);
      expect(ids).not.toContain(adminChats.A.conversation);
      expect(ids).not.toContain(adminChats.B.conversation);
      expectNothingOfB(listed.body);
      expect((await call(get('/conversations?q=passphrase'))).body.total).toBe(0);
    });

    // The routes only an admin key opens: the same 403, naming the role, whichever collection an id is of.
    const adminOnly: [string, (c: typeof A) => Request][] = [
      ['POST /collections', () => post('/collections', { name: 'Mine' })],
      [
        'PATCH /collections/:id',
        (c) => ({ method: 'PATCH', path: `/collections/${c.id}`, body: { name: 'Mine' } }),
      ],
      ['DELETE /collections/:id', (c) => ({ method: 'DELETE', path: `/collections/${c.id}` })],
      ['POST /documents/reembed', () => post('/documents/reembed')],
      [
        'POST /question-templates',
        () => post('/question-templates', { name: 'T', kind: 'definition', promptTemplate: 'p' }),
      ],
      ['GET /metrics', () => get('/metrics')],
      ['GET /admin/queues', () => get('/admin/queues')],
      ['GET /admin/queues/api/queues', () => get('/admin/queues/api/queues')],
      ['GET /auth/keys', () => get('/auth/keys')],
      ['POST /auth/keys', () => post('/auth/keys', { name: 'Escalation', role: 'admin' })],
      [
        'PUT /auth/keys/:id/grants (its own, onto B)',
        (c) => ({
          method: 'PUT',
          path: `/auth/keys/${keys[who].id}/grants`,
          body: { grants: [{ collectionId: c.id, access: 'write' }] },
        }),
      ],
    ];

    it.each(adminOnly)('%s: 403 for a user key, the same for A and B', async (label, request) => {
      const replies = [await call(request(A)), await call(request(B))];
      for (const reply of replies) {
        expect({ label, status: reply.status }).toEqual({ label, status: 403 });
        expect(reply.body).toEqual({
          statusCode: 403,
          code: 'forbidden',
          error: 'Forbidden',
          message: roleMessage(who),
        });
      }
    });
  });

  describe.each(['reader', 'writer'] as const)("B's evaluation work for a key with %s access to A", (who) => {
    const call = as(who);
    // Banks, items, runs, ablations and rerankers of B: 404, word for word as ids nobody has.
    const foreign: [string, (c: typeof A) => string, (id: string) => Request][] = [
      ['GET /question-banks/:id', (c) => c.bank, (id) => get(`/question-banks/${id}`)],
      [
        'PATCH /question-banks/:id',
        (c) => c.bank,
        (id) => ({ method: 'PATCH', path: `/question-banks/${id}`, body: { name: 'Mine' } }),
      ],
      [
        'DELETE /question-banks/:id',
        (c) => c.bank,
        (id) => ({ method: 'DELETE', path: `/question-banks/${id}` }),
      ],
      ['GET /question-banks/:id/items', (c) => c.bank, (id) => get(`/question-banks/${id}/items`)],
      [
        'POST /question-banks/:id/items',
        (c) => c.bank,
        (id) => post(`/question-banks/${id}/items`, { question: 'Mine?' }),
      ],
      ['GET /question-banks/:id/export', (c) => c.bank, (id) => get(`/question-banks/${id}/export`)],
      [
        'POST /question-banks/:id/evaluate',
        (c) => c.bank,
        (id) => post(`/question-banks/${id}/evaluate`, {}),
      ],
      [
        'POST /question-banks/:id/ablation',
        (c) => c.bank,
        (id) => post(`/question-banks/${id}/ablation`, {}),
      ],
      ['GET /question-banks/:id/ablations', (c) => c.bank, (id) => get(`/question-banks/${id}/ablations`)],
      [
        'POST /question-banks/:id/rerankers',
        (c) => c.bank,
        (id) => post(`/question-banks/${id}/rerankers`, {}),
      ],
      ['GET /eval-runs?bankId', (c) => c.bank, (id) => get(`/eval-runs?bankId=${id}`)],
      ['GET /rerankers?bankId', (c) => c.bank, (id) => get(`/rerankers?bankId=${id}`)],
      ['GET /eval-runs/:id', (c) => c.run, (id) => get(`/eval-runs/${id}`)],
      ['GET /eval-runs/compare', (c) => c.run, (id) => get(`/eval-runs/compare?a=${id}&b=${id}`)],
      ['GET /ablations/:id', (c) => c.ablation, (id) => get(`/ablations/${id}`)],
      [
        'GET /rerankers/active?collectionId',
        (c) => c.id,
        (id) => get(`/rerankers/active?collectionId=${id}`),
      ],
    ];

    it.each(foreign)('%s of B: hidden as one that does not exist', async (label, idOf, request) => {
      await expectHidden(label, who, idOf(B), request);
    });

    it("lists hold nothing of B's: banks, runs, rerankers, enhancement warnings", async () => {
      for (const path of [
        '/question-banks?limit=100',
        `/question-banks?collectionId=${B.id}`,
        '/eval-runs?limit=100',
        '/rerankers?limit=100',
        '/enhancement-warnings',
        '/feedback?limit=100',
        `/feedback?collectionId=${B.id}`,
      ]) {
        const reply = await call(get(path));
        expect({ path, status: reply.status }).toEqual({ path, status: 200 });
        expectNothingOfB(reply.body, path);
      }
      // Templates serve every collection: any key reads them, only an admin changes them.
      expect((await call(get('/question-templates'))).status).toBe(200);
    });
  });

  it("a read grant does not manage A's banks: they are not listed, and each is a 403 saying why", async () => {
    const reader = as('reader');
    const needsWrite =
      `This key may read collection ${A.id} but not manage its question banks, evaluations and rerankers: ` +
      'that needs a write grant on it.';
    expect((await reader(get('/question-banks'))).body.total).toBe(0);
    expect((await reader(get('/eval-runs'))).body.total).toBe(0);
    for (const request of [
      get(`/question-banks/${A.bank}`),
      post(`/question-banks/${A.bank}/evaluate`, {}),
      get(`/eval-runs/${A.run}`),
      get(`/ablations/${A.ablation}`),
    ]) {
      const reply = await reader(request);
      expect({ path: request.path, status: reply.status, message: reply.body.message }).toEqual({
        path: request.path,
        status: 403,
        message: needsWrite,
      });
    }
    const created = await reader(post('/question-banks', { name: 'Mine', collectionId: A.id }));
    expect(created).toMatchObject({
      status: 403,
      body: {
        message: `This key may read collection ${A.id} but not change it: it needs a write grant on it.`,
      },
    });
    // It still reads which reranker serves its searches.
    expect((await reader(get(`/rerankers/active?collectionId=${A.id}`))).status).toBe(200);
  });

  it("a write grant manages A's evaluation work: banks, items with A's sources, runs, ablations", async () => {
    const writer = as('writer');
    const listed = await writer(get('/question-banks?limit=100'));
    expect(listed.body.items.map((bank: Json) => bank.id)).toEqual([A.bank]);
    const runs = await writer(get('/eval-runs?limit=100'));
    expect(runs.body.items.map((run: Json) => run.bankId)).toEqual(runs.body.items.map(() => A.bank));
    expect(runs.body.items.map((run: Json) => run.id)).toContain(A.run);
    expect((await writer(get(`/eval-runs/${A.run}`))).status).toBe(200);
    expect((await writer(get(`/ablations/${A.ablation}`))).status).toBe(200);

    const bank = await writer(post('/question-banks', { name: 'Writer bank', collectionId: A.id }));
    expect(bank).toMatchObject({ status: 201, body: { collectionId: A.id } });
    const own = await writer(
      post(`/question-banks/${bank.body.id}/items`, {
        question: 'How is the standby promoted?',
        expectedSources: [{ documentId: A.documents[0] }, { chunkId: A.chunks[0] }],
      }),
    );
    expect(own.status).toBe(201);
    // B's documents and passages are not sources a bank of A can expect: unknown, as ids nobody has.
    const crossing = await writer(
      post(`/question-banks/${bank.body.id}/items`, {
        question: 'Which vault holds payroll?',
        expectedSources: [{ documentId: B.documents[0] }],
      }),
    );
    expect(crossing.status).toBe(400);
    expect(crossing.body.message.join(' ')).toContain("no document of the bank's collection has that id");
    const chunkCrossing = await writer(
      post(`/question-banks/${bank.body.id}/items`, {
        question: 'Payroll?',
        expectedSources: [{ chunkId: B.chunks[0] }],
      }),
    );
    expect(chunkCrossing.status).toBe(400);
    expectNothingOfB(crossing.body.message.join(' ').split(B.documents[0]).join('<id>'));
    const template = await asAdmin(
      post('/question-templates', { name: 'Definitions', kind: 'definition', promptTemplate: 'p' }),
    );
    expect(template.status).toBe(201);
    const generated = await writer(
      post(`/question-banks/${bank.body.id}/generate`, {
        templateId: template.body.id,
        count: 2,
        documentIds: [B.documents[0]],
      }),
    );
    expect(generated.status).toBe(400);
    expect(generated.body.message.join(' ')).toContain("not in the bank's collection");
    // A bank in B is refused as B itself is: 404.
    const inB = await writer(post('/question-banks', { name: 'Mine', collectionId: B.id }));
    expect(inB.status).toBe(404);
    const evaluated = await writer(
      post(`/question-banks/${bank.body.id}/evaluate`, { settings: { ranker: 'bm25' } }),
    );
    expect(evaluated.status).toBe(202);
    expect((await writer(get(`/eval-runs/${evaluated.body.id}`))).status).toBe(200);
    expect((await writer({ method: 'DELETE', path: `/question-banks/${bank.body.id}` })).status).toBe(204);
  });

  it('a read grant reads A but does not change it: 403 with a sentence saying what it lacks', async () => {
    const reader = as('reader');
    const readOnly = `This key may read collection ${A.id} but not change it: it needs a write grant on it.`;
    const text = await reader(
      post('/documents/text', { title: 'Note', text: 'A note.', collectionId: A.id }),
    );
    expect(text).toMatchObject({ status: 403, body: { code: 'forbidden', message: readOnly } });
    const file = await reader({
      method: 'POST',
      path: '/documents',
      form: textFile(A.id, 'note.txt', 'A note in a file.'),
    });
    expect(file).toMatchObject({ status: 403, body: { message: readOnly } });
    const deletion = await reader({ method: 'DELETE', path: `/documents/${A.documents[1]}` });
    expect(deletion).toMatchObject({ status: 403, body: { message: readOnly } });
    const move = await reader(post(`/documents/${A.documents[1]}/move`, { collectionId: A.id }));
    expect(move).toMatchObject({
      status: 403,
      body: { message: expect.stringMatching(/may read collection .* but not change it/) },
    });
    // Nothing changed.
    expect((await reader(get('/documents'))).body.total).toBe(A.documents.length);
    expect((await reader(get(`/documents?search=Note`))).body.total).toBe(0);
  });

  it('a write grant adds, moves within and deletes documents of A', async () => {
    const writer = as('writer');
    const headers = { 'x-api-key': keys.writer.key };
    const text = await writer(
      post('/documents/text', {
        title: 'Escalation',
        text: 'Escalate to the database lead.',
        collectionId: A.id,
      }),
    );
    expect(text).toMatchObject({ status: 202, body: { duplicate: false } });
    const file = await writer({
      method: 'POST',
      path: '/documents',
      form: textFile(A.id, 'handover.txt', 'The handover note lists the open incidents.'),
    });
    expect(file.status).toBe(202);
    const added = [text.body.id as string, file.body.documents[0].id as string];
    for (const id of added) {
      expect(await waitForStatus(server.baseUrl, id, ['indexed', 'failed'], 60_000, headers)).toMatchObject({
        status: 'indexed',
        collectionId: A.id,
      });
    }
    const moved = await writer(post(`/documents/${added[0]}/move`, { collectionId: A.id }));
    expect(moved).toMatchObject({ status: 200, body: { collectionId: A.id } });
    for (const id of added) {
      expect(await writer({ method: 'DELETE', path: `/documents/${id}` })).toMatchObject({
        status: 200,
        body: { id, deleted: true },
      });
    }
    // B is as it was.
    expect((await asAdmin(get(`/documents?collectionId=${B.id}`))).body.total).toBe(B_DOCUMENTS.length);
  });

  it('a key without grants sees no collection, no document and no passage', async () => {
    const none = as('none');
    expect((await none(get('/collections'))).body).toMatchObject({ total: 0, items: [] });
    expect((await none(get('/documents'))).body).toMatchObject({ total: 0, items: [] });
    await expectHidden('GET /collections/:id (A)', 'none', A.id, (id) => get(`/collections/${id}`));
    await expectHidden('GET /documents/:id (A)', 'none', A.documents[0], (id) => get(`/documents/${id}`));
    const search = await none(post('/rag/search', { query: 'replica' }));
    expect(search).toMatchObject({ status: 200, body: { collectionIds: [], results: [] } });
    const chat = await chatAs(keys.none.key, { message: 'Which replica is promoted?' });
    expect(chat.status).toBe(200);
    expect(eventOf(chat.events, 'retrieval').passages).toEqual([]);
    expectNothingOfB(chat.events);
    // A key without any write grant may not add documents: naming no collection, it is told so; naming
    // one, it is answered as for that collection (404 here: it reads none).
    expect(await none(post('/documents/text', { title: 'Notes', text: 'Some words.' }))).toMatchObject({
      status: 403,
      body: {
        message:
          'This key may not add documents: it has no write grant on any collection (an admin grants them).',
      },
    });
    // Without a collectionId an upload goes to the default collection, which the writer (of A) does not
    // have: it is asked to name one, and the default collection's id is not given away.
    const unnamed = await as('writer')(post('/documents/text', { title: 'Notes', text: 'Some words.' }));
    expect(unnamed).toMatchObject({
      status: 400,
      body: {
        message:
          'Name the collection to store the documents in (collectionId): this key has no default collection.',
      },
    });
  });

  it('GET /health, which needs no key, tells the collections’ languages to admin keys only', async () => {
    const anonymous = await fetch(`${server.baseUrl}/health`);
    expect(((await anonymous.json()) as Json).documentLanguages).toEqual({});
    expect((await as('reader')(get('/health'))).body.documentLanguages).toEqual({});
    // B holds a German document: an admin is told.
    expect((await asAdmin(get('/health'))).body.documentLanguages).toMatchObject({ de: 1 });
  });

  it('a changed grant takes effect at the next request', async () => {
    const reader = as('reader');
    expect((await reader(get(`/documents/${A.documents[0]}`))).status).toBe(200);
    const revoked = await asAdmin({
      method: 'PUT',
      path: `/auth/keys/${keys.reader.id}/grants`,
      body: { grants: [] },
    });
    expect(revoked).toMatchObject({ status: 200, body: { grants: [] } });

    expect((await reader(get('/collections'))).body).toMatchObject({ total: 0, items: [] });
    expect((await reader(get('/documents'))).body).toMatchObject({ total: 0, items: [] });
    await expectHidden('GET /collections/:id (revoked A)', 'reader', A.id, (id) => get(`/collections/${id}`));
    await expectHidden('GET /documents/:id (revoked A)', 'reader', A.documents[0], (id) =>
      get(`/documents/${id}`),
    );
    await expectHidden('GET /documents/:id/chunks (revoked A)', 'reader', A.documents[0], (id) =>
      get(`/documents/${id}/chunks`),
    );
    await expectHidden('POST /rag/search [A] (revoked)', 'reader', A.id, (id) =>
      post('/rag/search', { query: 'replica', collectionIds: [id] }),
    );
    const search = await reader(post('/rag/search', { query: 'replica' }));
    expect(search).toMatchObject({ status: 200, body: { collectionIds: [], results: [] } });
    // The conversation's follow-up searched A: it can search it no more, and must name collections.
    const followUp = await chatAs(keys.reader.key, {
      message: 'And then?',
      conversationId: own.reader.conversation,
    });
    expect(followUp.status).toBe(400);
    expect(followUp.body.message).toMatch(/can be searched any more: name the collections to search/);

    // A write grant lowered to read stops uploads at the next request.
    const lowered = await asAdmin({
      method: 'PUT',
      path: `/auth/keys/${keys.writer.id}/grants`,
      body: { grants: [{ collectionId: A.id, access: 'read' }] },
    });
    expect(lowered.status).toBe(200);
    const upload = await as('writer')(
      post('/documents/text', { title: 'Late', text: 'Too late to write.', collectionId: A.id }),
    );
    expect(upload).toMatchObject({ status: 403, body: { code: 'forbidden' } });

    // Granted B instead, the reader reads B and no longer A.
    await asAdmin({
      method: 'PUT',
      path: `/auth/keys/${keys.reader.id}/grants`,
      body: { grants: [{ collectionId: B.id, access: 'read' }] },
    });
    const listed = await reader(get('/collections'));
    expect(listed.body.items.map((c: Json) => c.id)).toEqual([B.id]);
    expect((await reader(get(`/documents/${B.documents[0]}`))).status).toBe(200);
    expect((await reader(get(`/documents/${A.documents[0]}`))).status).toBe(404);
  });
});
