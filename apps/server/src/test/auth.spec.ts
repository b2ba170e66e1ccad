import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { EMBEDDER } from '../providers/providers.module';
import type { Json } from './helpers/http';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { eventOf, postSse } from './helpers/sse-client';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';

const ADMIN_KEY = 'auth-suite-admin-key-0123456789';
const KEY_FORMAT = /^lum_[A-Za-z0-9_-]{43}$/;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A small client for one server: JSON in and out, with the given headers. */
function clientFor(server: () => TestApp) {
  const call = async (
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: Json; headers: Headers }> => {
    const response = await fetch(`${server().baseUrl}${path}`, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    let body: Json = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON (metrics, HTML): keep the text
    }
    return { status: response.status, body, headers: response.headers };
  };
  const as = (key: string | null): { headers: Record<string, string> } => ({
    headers: key ? { 'x-api-key': key } : {},
  });
  const createKey = async (adminKey: string | null, name: string, role: 'admin' | 'user') => {
    const created = await call('POST', '/auth/keys', { body: { name, role }, ...as(adminKey) });
    expect(created.status).toBe(201);
    return created.body as { id: string; key: string; prefix: string; name: string; role: string };
  };
  /** Ask a question; returns the conversation and answer ids from the stream. */
  const chat = async (key: string | null, message: string, conversationId?: string) => {
    const response = await postSse(
      `${server().baseUrl}/chat`,
      { message, ...(conversationId ? { conversationId } : {}) },
      { headers: key ? { 'x-api-key': key } : {} },
    );
    return {
      status: response.status,
      body: response.body,
      conversationId: eventOf(response.events, 'done')?.conversationId as string | undefined,
      messageId: eventOf(response.events, 'done')?.messageId as string | undefined,
    };
  };
  return { call, as, createKey, chat };
}

describe('API keys with ADMIN_API_KEY set (keys mode; real server, embedded PGlite, real Redis)', () => {
  let server: TestApp;
  const { call, as, createKey, chat } = clientFor(() => server);
  let alice: { id: string; key: string };
  let bob: { id: string; key: string };
  /** The default collection, which the seeded documents are in. */
  let library: string;

  beforeAll(async () => {
    server = await startTestApp(testEnv({ ADMIN_API_KEY: ADMIN_KEY }));
    await seedDocuments(server.app.get(DataSource), server.app.get(EMBEDDER), RUNBOOK_CORPUS);
    alice = await createKey(ADMIN_KEY, 'Alice', 'user');
    bob = await createKey(ADMIN_KEY, 'Bob', 'user');
    [{ id: library }] = await server.app.get(DataSource).query(`SELECT default_collection_id() AS id`);
    // Alice reads the library; Bob is granted no collection.
    const granted = await call('PUT', `/auth/keys/${alice.id}/grants`, {
      body: { grants: [{ collectionId: library, access: 'read' }] },
      ...as(ADMIN_KEY),
    });
    expect(granted.status).toBe(200);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
  });

  it('asks every route but /health for a key, with a sentence; a wrong key is refused the same way', async () => {
    expect((await call('GET', '/health')).status).toBe(200);
    for (const [method, path, body] of [
      ['GET', '/auth/me'],
      ['POST', '/rag/search', { query: 'failover' }],
      ['GET', '/conversations'],
      ['GET', '/documents'],
      ['GET', '/metrics'],
    ] as const) {
      const missing = await call(method, path, { body });
      expect({ path, status: missing.status }).toEqual({ path, status: 401 });
      expect(missing.body).toMatchObject({ statusCode: 401, code: 'unauthorized', error: 'Unauthorized' });
      expect(missing.body.message).toMatch(/API key is required.*x-api-key/);
      const wrong = await call(method, path, { body, ...as('lum_not-a-key-of-this-server') });
      expect({ path, status: wrong.status }).toEqual({ path, status: 401 });
      expect(wrong.body.message).toBe('The API key is not valid: it is unknown or has been revoked.');
    }
    // Loopback is no excuse in keys mode.
    expect((await chat(null, 'How do I promote the standby replica?')).status).toBe(401);
  });

  it('tells a key who it is, and accepts it as x-api-key, Bearer token or basic-auth password', async () => {
    const me = await call('GET', '/auth/me', as(alice.key));
    expect(me).toMatchObject({
      status: 200,
      body: { id: alice.id, name: 'Alice', role: 'user', mode: 'keys' },
    });
    const bearer = await call('GET', '/auth/me', { headers: { authorization: `Bearer ${alice.key}` } });
    expect(bearer.body.id).toBe(alice.id);
    const basic = Buffer.from(`prometheus:${ADMIN_KEY}`).toString('base64');
    const admin = await call('GET', '/auth/me', { headers: { authorization: `Basic ${basic}` } });
    expect(admin.body).toMatchObject({ name: 'bootstrap (ADMIN_API_KEY)', role: 'admin', mode: 'keys' });
    const metrics = await call('GET', '/metrics', { headers: { authorization: `Basic ${basic}` } });
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/^# HELP /m);
  });

  it('shows a key once: the creation answer has it, lists never do, and only its hash is stored', async () => {
    const created = await createKey(ADMIN_KEY, 'Shown once', 'user');
    expect(created.key).toMatch(KEY_FORMAT);
    expect(created.prefix).toBe(created.key.slice(4, 12));
    expect(created).toMatchObject({ name: 'Shown once', role: 'user', createdAt: expect.any(String) });

    const list = await call('GET', '/auth/keys?limit=100', as(ADMIN_KEY));
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ page: 1, limit: 100, total: 4, totalPages: 1 });
    expect(JSON.stringify(list.body)).not.toContain(created.key);
    expect(JSON.stringify(list.body)).not.toContain(ADMIN_KEY);
    const listed = list.body.items.find((item: Json) => item.id === created.id);
    expect(listed).toMatchObject({ lastUsedAt: null, revokedAt: null, prefix: created.prefix });
    // Alice's key was used by the test before: its last use is recorded.
    const aliceListed = list.body.items.find((item: Json) => item.id === alice.id);
    expect(aliceListed.lastUsedAt).toEqual(expect.any(String));
    expect(Object.keys(listed).sort()).toEqual(
      ['createdAt', 'grants', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'role'].sort(),
    );
    expect((await call('GET', '/auth/keys?limit=1&page=2', as(ADMIN_KEY))).body).toMatchObject({
      page: 2,
      limit: 1,
      total: 4,
      totalPages: 4,
    });

    const rows: Json[] = await server.app
      .get(DataSource)
      .query(`SELECT * FROM api_keys WHERE id = $1`, [created.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).toBe(sha256(created.key));
    expect(Object.values(rows[0]).map(String)).not.toContain(created.key);
    expect(JSON.stringify(rows[0])).not.toContain(created.key.slice(12));
    const [envRow] = await server.app
      .get(DataSource)
      .query(`SELECT key_hash FROM api_keys WHERE name = 'bootstrap (ADMIN_API_KEY)'`);
    expect(envRow.key_hash).toBe(sha256(ADMIN_KEY));
  });

  it('validates new keys like every body: unknown fields, bad roles and blank names are 400', async () => {
    for (const body of [
      { name: 'x', role: 'owner' },
      { name: '   ', role: 'user' },
      { name: 'x', role: 'user', key: 'lum_chosen-by-me' },
      { role: 'user' },
      { name: 'x'.repeat(101), role: 'user' },
    ]) {
      const response = await call('POST', '/auth/keys', { body, ...as(ADMIN_KEY) });
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(response.body).toMatchObject({ statusCode: 400, code: 'invalid_request', error: 'Bad Request' });
    }
    expect((await call('DELETE', '/auth/keys/not-a-uuid', as(ADMIN_KEY))).status).toBe(400);
    const unknown = await call('DELETE', '/auth/keys/00000000-0000-4000-8000-000000000000', as(ADMIN_KEY));
    expect(unknown.status).toBe(404);
  });

  it('lets a user key chat, search and read documents, and answers 403 on every admin route', async () => {
    const search = await call('POST', '/rag/search', { body: { query: 'failover' }, ...as(alice.key) });
    expect(search.status).toBe(200);
    const answer = await chat(alice.key, 'How do I promote the standby replica?');
    expect(answer.status).toBe(200);
    expect(answer.conversationId).toEqual(expect.any(String));
    const documents = await call('GET', '/documents', as(alice.key));
    expect(documents.status).toBe(200);
    expect(documents.body.total).toBeGreaterThan(0);
    const documentId = documents.body.items[0].id as string;
    expect((await call('GET', `/documents/${documentId}/chunks`, as(alice.key))).status).toBe(200);

    // Changing documents needs a write grant, not an admin key: a read grant is told what it lacks.
    for (const [method, path, body] of [
      ['POST', '/documents/text', { title: 'Sneaky', text: 'Not from a user.' }],
      ['DELETE', `/documents/${documentId}`],
    ] as const) {
      const response = await call(method, path, { body, ...as(alice.key) });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 403 });
      expect(response.body.message).toBe(
        `This key may read collection ${library} but not change it: it needs a write grant on it.`,
      );
    }
    // Question banks are managed with a write grant too: Alice reads the library, so she sees none of them
    // and may not make one there.
    expect((await call('GET', '/question-banks', as(alice.key))).body.total).toBe(0);
    expect((await call('GET', '/eval-runs', as(alice.key))).body.total).toBe(0);
    const bank = await call('POST', '/question-banks', { body: { name: 'Sneaky bank' }, ...as(alice.key) });
    expect(bank.status).toBe(403);
    for (const [method, path, body] of [
      ['POST', '/documents/reembed'],
      ['POST', '/question-templates', { name: 'Sneaky', kind: 'definition', promptTemplate: 'p' }],
      ['GET', '/metrics'],
      ['GET', '/admin/queues'],
      ['GET', '/admin/queues/api/queues'],
      ['GET', '/auth/keys'],
      ['POST', '/auth/keys', { name: 'Escalation', role: 'admin' }],
      ['DELETE', `/auth/keys/${bob.id}`],
    ] as const) {
      const response = await call(method, path, { body, ...as(alice.key) });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 403 });
      expect(response.body).toMatchObject({ statusCode: 403, code: 'forbidden', error: 'Forbidden' });
      expect(response.body.message).toBe('This needs an admin API key; "Alice" is a user key.');
    }
    // Nothing happened: the document is still there and Bob's key still works.
    expect((await call('GET', `/documents/${documentId}`, as(ADMIN_KEY))).status).toBe(200);
    expect((await call('GET', '/auth/me', as(bob.key))).status).toBe(200);
    // The admin key opens the same routes.
    expect((await call('GET', '/question-banks', as(ADMIN_KEY))).status).toBe(200);
    expect((await call('GET', '/admin/queues', as(ADMIN_KEY))).status).toBe(200);
  });

  it("keeps each key's conversations to itself: another key's conversation is 404, never 403", async () => {
    const first = await chat(alice.key, 'How do I promote the standby replica?');
    const conversationId = first.conversationId!;
    const [row] = await server.app
      .get(DataSource)
      .query(`SELECT owner_key_id FROM conversations WHERE id = $1`, [conversationId]);
    expect(row.owner_key_id).toBe(alice.id);
    const bobs = await chat(bob.key, 'Where are the backups?');
    expect(bobs.status).toBe(200);

    const aliceList = await call('GET', '/conversations?limit=100', as(alice.key));
    const bobList = await call('GET', '/conversations?limit=100', as(bob.key));
    const ids = (page: Json) => page.items.map((item: Json) => item.id as string);
    expect(ids(aliceList.body)).toContain(conversationId);
    expect(ids(aliceList.body)).not.toContain(bobs.conversationId);
    expect(ids(bobList.body)).toEqual([bobs.conversationId]);
    expect(bobList.body.total).toBe(1);
    expect((await call('GET', '/conversations?limit=100', as(ADMIN_KEY))).body.items).not.toContainEqual(
      expect.objectContaining({ id: conversationId }),
    );

    const notFound = { status: 404, body: expect.objectContaining({ statusCode: 404 }) };
    expect(await call('GET', `/conversations/${conversationId}`, as(bob.key))).toMatchObject(notFound);
    expect(
      await call('PATCH', `/conversations/${conversationId}`, {
        body: { title: 'Mine now' },
        ...as(bob.key),
      }),
    ).toMatchObject(notFound);
    expect(await call('DELETE', `/conversations/${conversationId}`, as(bob.key))).toMatchObject(notFound);
    expect(await call('GET', `/messages/${first.messageId}/trace`, as(bob.key))).toMatchObject(notFound);
    expect(await call('GET', `/conversations/${conversationId}/export`, as(bob.key))).toMatchObject(notFound);
    // Searching finds only the key's own conversations.
    expect((await call('GET', '/conversations?q=standby', as(bob.key))).body.total).toBe(0);
    expect(ids((await call('GET', '/conversations?q=standby', as(alice.key))).body)).toContain(
      conversationId,
    );
    const [question] = await server.app
      .get(DataSource)
      .query(`SELECT id FROM messages WHERE conversation_id = $1 AND role = 'user'`, [conversationId]);
    const replace = { conversationId, replaceMessageId: question.id, message: 'Mine now?' };
    expect(await call('POST', '/chat', { body: replace, ...as(bob.key) })).toMatchObject(notFound);
    // The same answer as for a conversation that does not exist: nothing tells Bob it is there.
    const missing = await call('GET', '/conversations/00000000-0000-4000-8000-000000000000', as(bob.key));
    const hidden = await call('GET', `/conversations/${conversationId}`, as(bob.key));
    expect(hidden.body.message).toBe(
      missing.body.message.replace(/0{8}-0{4}-4000-8000-0{12}/, conversationId),
    );
    const followUp = await chat(bob.key, 'And then?', conversationId);
    expect(followUp.status).toBe(404);

    // Alice still has it, untouched, and can do all of that herself.
    const detail = await call('GET', `/conversations/${conversationId}`, as(alice.key));
    expect(detail.status).toBe(200);
    expect(detail.body.messages.total).toBe(2);
    expect((await call('GET', `/messages/${first.messageId}/trace`, as(alice.key))).status).toBe(200);
    const renamed = await call('PATCH', `/conversations/${conversationId}`, {
      body: { title: 'Failover' },
      ...as(alice.key),
    });
    expect(renamed).toMatchObject({ status: 200, body: { id: conversationId, title: 'Failover' } });
    expect((await chat(alice.key, 'And then?', conversationId)).status).toBe(200);
    expect((await call('DELETE', `/conversations/${conversationId}`, as(alice.key))).status).toBe(204);
    expect((await call('GET', `/conversations/${conversationId}`, as(alice.key))).status).toBe(404);
  });

  it('refuses a revoked key at once; revoking is idempotent; ADMIN_API_KEY itself cannot be revoked', async () => {
    const carol = await createKey(ADMIN_KEY, 'Carol', 'user');
    expect((await call('GET', '/auth/me', as(carol.key))).status).toBe(200);
    const revoked = await call('DELETE', `/auth/keys/${carol.id}`, as(ADMIN_KEY));
    expect(revoked).toMatchObject({ status: 200, body: { id: carol.id, revokedAt: expect.any(String) } });
    const after = await call('POST', '/rag/search', { body: { query: 'failover' }, ...as(carol.key) });
    expect(after.status).toBe(401);
    expect(after.body.message).toMatch(/not valid.*revoked/);
    expect((await call('DELETE', `/auth/keys/${carol.id}`, as(ADMIN_KEY))).status).toBe(200);

    const envKey = (await call('GET', '/auth/me', as(ADMIN_KEY))).body.id as string;
    const refused = await call('DELETE', `/auth/keys/${envKey}`, as(ADMIN_KEY));
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/ADMIN_API_KEY.*change the variable/);
    expect((await call('GET', '/auth/me', as(ADMIN_KEY))).status).toBe(200);

    // A second admin key can manage keys, and can be revoked (the env key remains an admin).
    const dana = await createKey(ADMIN_KEY, 'Dana', 'admin');
    expect((await call('GET', '/auth/keys', as(dana.key))).status).toBe(200);
    expect((await call('DELETE', `/auth/keys/${dana.id}`, as(dana.key))).status).toBe(200);
    expect((await call('GET', '/auth/keys', as(dana.key))).status).toBe(401);
  });
});

describe('local mode (no ADMIN_API_KEY): loopback HOST only, a generated admin key', () => {
  let dataDir: string;
  let server: TestApp | undefined;
  const { call, as, createKey, chat } = clientFor(() => server!);

  /** Start on the data folder, recording what the server prints on stdout while it starts. */
  async function startRecording(): Promise<string[]> {
    const printed: string[] = [];
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    }) as typeof process.stdout.write);
    try {
      // Not NODE_ENV=test, which logs the generated key instead of printing it.
      server = await startTestApp(testEnv({ PGLITE_DATA_DIR: dataDir, NODE_ENV: 'development' }));
    } finally {
      spy.mockRestore();
    }
    return printed.filter((line) => line.includes('lum_'));
  }

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'lumina-auth-'));
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses to start on a non-loopback HOST without ADMIN_API_KEY, naming both', async () => {
    await expect(startTestApp(testEnv({ HOST: '0.0.0.0' }))).rejects.toThrow(
      /HOST: is "0\.0\.0\.0", which other machines can reach, and ADMIN_API_KEY is not set/,
    );
  });

  it('prints a generated admin key once on the first start, and not again on the next', async () => {
    const first = await startRecording();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/ADMIN_API_KEY is not set.*shown only this once/);
    const key = /(lum_[A-Za-z0-9_-]+)/.exec(first[0])![1];
    expect(key).toMatch(KEY_FORMAT);
    const me = await call('GET', '/auth/me', as(key));
    expect(me.body).toMatchObject({ name: 'bootstrap (generated)', role: 'admin', mode: 'local' });
    const [row] = await server!.app.get(DataSource).query(`SELECT key_hash FROM api_keys`);
    expect(row.key_hash).toBe(sha256(key));

    // A conversation from before keys existed (no owner) …
    await server!.app
      .get(DataSource)
      .query(`INSERT INTO conversations (title, owner_key_id) VALUES ('From before keys', NULL)`);
    await server!.close();
    server = undefined;

    expect(await startRecording()).toEqual([]);
    expect((await call('GET', '/auth/me', as(key))).body.id).toBe(me.body.id);
    // … belongs to the bootstrap admin key after the next start.
    const list = await call('GET', '/conversations', as(key));
    expect(list.body.items.map((item: Json) => item.title)).toContain('From before keys');
  }, 60_000);

  it('lets direct loopback clients in without a key, as the bootstrap admin key', async () => {
    const me = await call('GET', '/auth/me');
    expect(me).toMatchObject({
      status: 200,
      body: { name: 'bootstrap (generated)', role: 'admin', mode: 'local' },
    });
    // Their conversations are the bootstrap key's: the same list with or without the key.
    const answer = await chat(null, 'How do I promote the standby replica?');
    expect(answer.status).toBe(200);
    const [row] = await server!.app
      .get(DataSource)
      .query(`SELECT owner_key_id FROM conversations WHERE id = $1`, [answer.conversationId]);
    expect(row.owner_key_id).toBe(me.body.id);
  });

  it('asks for a key when the request came through a proxy', async () => {
    const proxies: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=203.0.113.9' },
    ];
    for (const headers of proxies) {
      const response = await call('GET', '/conversations', { headers });
      expect(response.status).toBe(401);
      expect(response.body.message).toMatch(/without ADMIN_API_KEY.*proxy/);
      const dashboard = await call('GET', '/admin/queues', { headers });
      expect(dashboard.status).toBe(401);
      expect(dashboard.headers.get('www-authenticate')).toMatch(/^Basic realm="Lumina admin"/);
    }
  });

  it('authenticates a presented key even on loopback: user keys are users, bad keys are 401', async () => {
    const user = await createKey(null, 'Local user', 'user');
    expect((await call('GET', '/auth/me', as(user.key))).body).toMatchObject({ role: 'user', mode: 'local' });
    expect((await call('GET', '/auth/keys', as(user.key))).status).toBe(403);
    expect((await call('GET', '/conversations', as(user.key))).body.total).toBe(0);
    expect((await call('GET', '/conversations', as('lum_wrong'))).status).toBe(401);
    const proxiedWithKey = await call('GET', '/conversations', {
      headers: { 'x-api-key': user.key, 'x-forwarded-for': '203.0.113.9' },
    });
    expect(proxiedWithKey.status).toBe(200);
  });

  it('refuses to revoke the last active admin key (409), and revokes one that is not the last', async () => {
    const bootstrap = (await call('GET', '/auth/me')).body.id as string;
    const last = await call('DELETE', `/auth/keys/${bootstrap}`);
    expect(last.status).toBe(409);
    expect(last.body.message).toBe(
      'This is the last active admin key: create another admin key before revoking this one.',
    );
    const second = await createKey(null, 'Second admin', 'admin');
    expect((await call('DELETE', `/auth/keys/${second.id}`)).status).toBe(200);
    expect((await call('DELETE', `/auth/keys/${bootstrap}`)).status).toBe(409);
  });
});
