import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DataSource } from 'typeorm';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { readJson } from './helpers/http';
import type { Json } from './helpers/http';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';

const ADMIN_KEY = 'hostile-suite-admin-key-0123456789';
const TABLES = ['documents', 'chunks', 'question_banks', 'question_bank_items', 'conversations'] as const;
type Counts = Record<(typeof TABLES)[number], number>;

const SQL_INJECTIONS = [
  "'; DROP TABLE documents; --",
  "' OR '1'='1",
  '1; DELETE FROM chunks WHERE 1=1; --',
  "x' UNION SELECT id, title FROM documents --",
  '$$; TRUNCATE question_banks; $$',
];
const SCRIPT = '<script>alert("x")</script><img src=x onerror=alert(1)>';
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

function credentialed(headers: RequestInit['headers']): Record<string, string> {
  const given = { ...(headers as Record<string, string> | undefined) };
  const own = Object.keys(given).some((name) => ['x-api-key', 'authorization'].includes(name.toLowerCase()));
  return own ? given : { ...given, 'x-api-key': ADMIN_KEY };
}

interface Case {
  name: string;
  send: () => Promise<Response>;
  /** An exact status, or a list of acceptable ones. */
  status: number | number[];
  /** The message a person reads (for 4xx answers). */
  message?: RegExp;
  /** Tables whose row counts may grow (data the request legitimately stored). */
  grows?: Partial<Counts>;
  /** Extra checks on the answer. */
  check?: (body: Json, response: Response) => void | Promise<void>;
}

describe('hostile input over HTTP (real server, embedded PGlite, real Redis, admin key set)', () => {
  let server: TestApp;
  let dataSource: DataSource;
  let uploadRoot: string;
  let uploadDir: string;

  const url = (path: string) => `${server.baseUrl}${path}`;
  /** Requests carry the admin key unless they bring their own credential (or use fetch itself). */
  const send = (input: string, init: RequestInit = {}) =>
    fetch(input, { ...init, headers: credentialed(init.headers) });
  const json = (path: string, body: unknown, init: RequestInit = {}) =>
    send(url(path), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(init.headers ?? {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  /** The same POST with no credential at all. */
  const anonymousJson = (path: string, body: unknown) =>
    fetch(url(path), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const admin = { 'x-api-key': ADMIN_KEY };
  /** A user key, and a key that was revoked (made in beforeAll). */
  let userKey = '';
  let revokedKey = '';

  /** A multipart body built by hand, so file names reach the server byte for byte. */
  function multipart(files: { name: string; content: Buffer | string; type?: string }[]): RequestInit {
    const boundary = `----hostile${Math.random().toString(36).slice(2)}`;
    const parts: Buffer[] = [];
    for (const file of files) {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\n` +
            `Content-Type: ${file.type ?? 'text/plain'}\r\n\r\n`,
          'utf8',
        ),
        Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content, 'utf8'),
        Buffer.from('\r\n'),
      );
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    return {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: Buffer.concat(parts),
    };
  }

  async function counts(): Promise<Counts> {
    const result = {} as Counts;
    for (const table of TABLES) {
      const [row] = await dataSource.query(`SELECT count(*)::int AS n FROM ${table}`);
      result[table] = Number(row.n);
    }
    return result;
  }

  /** Wait until the ingestion workers have finished with every document (indexed or failed). */
  async function documentsSettled(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [row] = await dataSource.query(
        `SELECT count(*)::int AS n FROM documents WHERE status NOT IN ('indexed', 'failed')`,
      );
      if (Number(row.n) === 0) return;
      if (Date.now() > deadline) throw new Error('documents did not settle within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  function filesOutsideUploadDir(): string[] {
    // The upload dir lives alone inside uploadRoot: anything else there escaped it.
    return readdirSync(uploadRoot).filter((name) => name !== 'uploads');
  }

  beforeAll(async () => {
    uploadRoot = mkdtempSync(join(tmpdir(), 'lumina-hostile-'));
    uploadDir = join(uploadRoot, 'uploads');
    server = await startTestApp(
      testEnv({
        ADMIN_API_KEY: ADMIN_KEY,
        UPLOAD_DIR: uploadDir,
        UPLOAD_MAX_BYTES: String(64 * 1024),
        REQUEST_BODY_LIMIT: '256kb',
      }),
    );
    dataSource = server.app.get(DataSource);
    // A bank to aim item and search cases at.
    const bank = await json('/question-banks', { name: 'Hostile bank' }, { headers: admin });
    expect(bank.status).toBe(201);
    bankId = (await readJson(bank)).id;
    const key = async (name: string) => {
      const created = await json('/auth/keys', { name, role: 'user' });
      expect(created.status).toBe(201);
      return (await readJson(created)) as { id: string; key: string };
    };
    userKey = (await key('Hostile user')).key;
    const revoked = await key('Hostile revoked');
    expect((await send(url(`/auth/keys/${revoked.id}`), { method: 'DELETE' })).status).toBe(200);
    revokedKey = revoked.key;
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    rmSync(uploadRoot, { recursive: true, force: true });
  });

  let bankId = '';

  const cases: Case[] = [
    // --- uploads ---
    {
      name: 'empty upload (no file at all)',
      send: () => send(url('/documents'), multipart([])),
      status: 400,
      message: /file/i,
    },
    {
      name: 'empty file',
      send: () => send(url('/documents'), multipart([{ name: 'empty.txt', content: '' }])),
      status: 422,
      message: /empty/i,
    },
    {
      name: 'oversize upload (above UPLOAD_MAX_BYTES)',
      send: () => send(url('/documents'), multipart([{ name: 'big.txt', content: 'word '.repeat(20_000) }])),
      status: 413,
      message: /larger than the upload limit/,
    },
    {
      name: 'binary garbage named .txt',
      send: () =>
        send(
          url('/documents'),
          multipart([
            {
              name: 'garbage.txt',
              content: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)),
            },
          ]),
        ),
      status: 422,
      message: /binary|not text|UTF-8/i,
    },
    {
      name: 'invalid UTF-8 in a .txt',
      send: () =>
        send(
          url('/documents'),
          multipart([
            {
              name: 'latin.txt',
              content: Buffer.concat([
                Buffer.from('caf'),
                Buffer.from([0xe9, 0xc3, 0x28, 0xa0, 0xa1]),
                Buffer.from(' text'),
              ]),
            },
          ]),
        ),
      status: 422,
      message: /UTF-8/i,
    },
    {
      name: 'zip-bomb-like highly compressible payload (.docx of zeros above the limit)',
      send: () =>
        send(
          url('/documents'),
          multipart([
            { name: 'bomb.docx', content: Buffer.alloc(200 * 1024), type: 'application/octet-stream' },
          ]),
        ),
      status: 413,
      message: /larger than the upload limit/,
    },
    {
      name: 'zip-bomb-like payload within the size limit (.docx that is not a zip)',
      send: () =>
        send(
          url('/documents'),
          multipart([
            { name: 'bomb.docx', content: Buffer.alloc(32 * 1024), type: 'application/octet-stream' },
          ]),
        ),
      status: 422,
      message: /.+/,
    },
    {
      name: 'unsupported file type',
      send: () =>
        send(
          url('/documents'),
          multipart([{ name: 'tool.exe', content: 'MZ\x90\x00', type: 'application/x-msdownload' }]),
        ),
      status: 415,
      message: /supported/i,
    },
    {
      name: 'JSON body sent to the upload endpoint',
      send: () => json('/documents', { files: ['a.txt'] }),
      status: 415,
      message: /multipart\/form-data/,
    },
    {
      name: 'file name with ../ and control characters',
      send: () =>
        send(
          url('/documents'),
          multipart([
            {
              name: '../../..\x01\x1b[31m/evil\x07.txt',
              content: 'A harmless runbook about failover drills.',
            },
          ]),
        ),
      status: [202, 400, 422],
      grows: { documents: 1 },
      check: () => {
        expect(filesOutsideUploadDir()).toEqual([]);
        expect(existsSync(join(dirname(uploadRoot), 'evil.txt'))).toBe(false);
        expect(existsSync(join(uploadRoot, 'evil.txt'))).toBe(false);
      },
    },
    // --- body parsing and content types ---
    {
      name: 'malformed JSON',
      send: () => json('/rag/search', '{"query": "failover",'),
      status: 400,
      message: /not valid JSON/,
    },
    {
      name: 'text/plain body to a JSON endpoint',
      send: () =>
        send(url('/rag/search'), {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: 'failover',
        }),
      status: 400,
      message: /query/,
    },
    {
      name: 'multipart body to a JSON endpoint',
      send: () => send(url('/rag/search'), { ...multipart([{ name: 'q.txt', content: 'failover' }]) }),
      status: 400,
      message: /query/,
    },
    {
      name: 'huge JSON body (above REQUEST_BODY_LIMIT)',
      send: () => json('/rag/search', { query: 'x'.repeat(300 * 1024) }),
      status: 413,
      message: /larger than the limit of 256kb/,
    },
    {
      name: 'deeply nested JSON',
      send: () => json('/rag/search', `{"query":"a","settings":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`),
      status: 400,
      message: /nested more than 32 levels deep/,
    },
    {
      name: 'deeply nested JSON arrays',
      send: () =>
        json(
          '/chat',
          `{"message":"hi","settings":{"documentIds":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`,
        ),
      status: 400,
      message: /nested more than 32 levels deep/,
    },
    {
      name: 'non-UTF-8 bytes in a JSON body',
      send: () =>
        send(url('/rag/search'), {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=latin1' },
          body: Buffer.from('{"query":"caf\xe9"}', 'latin1'),
        }),
      status: 415,
      message: /UTF-8/,
    },
    // --- validation of fields ---
    {
      name: 'wrong types (query a number, settings a string)',
      send: () => json('/rag/search', { query: 42, settings: 'fast' }),
      status: 400,
      message: /query must be a string|settings must be an object/,
    },
    {
      name: 'unknown fields',
      send: () => json('/rag/search', { query: 'failover', admin: true, $where: '1' }),
      status: 400,
      message: /property admin should not exist/,
    },
    {
      name: 'arrays where objects are expected',
      send: () => json('/rag/search', [{ query: 'failover' }]),
      status: 400,
      message: /query/,
    },
    {
      name: 'settings as an array',
      send: () => json('/chat', { message: 'hello', settings: [1, 2] }),
      status: 400,
      message: /settings/,
    },
    {
      name: 'prototype pollution keys (__proto__, constructor.prototype)',
      send: () => json('/rag/search', '{"query":"failover","__proto__":{"isAdmin":true}}'),
      status: 400,
      message: /must not contain a "__proto__" key/,
      check: () => {
        expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
      },
    },
    {
      name: 'prototype pollution inside settings',
      send: () => json('/rag/search', '{"query":"failover","settings":{"__proto__":{"topK":100000}}}'),
      status: 400,
      message: /__proto__/,
      check: () => expect(({} as Record<string, unknown>).topK).toBeUndefined(),
    },
    {
      name: 'constructor.prototype keys are refused, not dropped',
      send: () => json('/rag/search', '{"query":"failover","constructor":{"prototype":{"polluted":1}}}'),
      status: 400,
      message: /must not contain a "constructor" key/,
      check: () => expect(({} as Record<string, unknown>).polluted).toBeUndefined(),
    },
    {
      name: 'huge topK',
      send: () => json('/rag/search', { query: 'failover', settings: { topK: 1e9 } }),
      status: 400,
      message: /topK must be at most/,
    },
    {
      name: 'negative, NaN and Infinity numbers in settings',
      send: () => json('/rag/search', '{"query":"failover","settings":{"topK":-5,"minScore":-1}}'),
      status: 400,
      message: /topK must be 1 or more|minScore must be 0 or more/,
    },
    {
      name: 'NaN / Infinity smuggled as strings in settings',
      send: () => json('/rag/search', { query: 'failover', settings: { topK: 'NaN', minScore: 'Infinity' } }),
      status: 400,
      message: /topK must be an integer|minScore must be a number/,
    },
    {
      name: 'non-finite number literal (1e999 → Infinity) in settings',
      send: () => json('/rag/search', '{"query":"failover","settings":{"minScore":1e999}}'),
      status: 400,
      message: /minScore/,
    },
    {
      name: '100 kB query',
      send: () => json('/rag/search', { query: 'failover '.repeat(12_000) }),
      status: 400,
      message: /query must be shorter than/,
    },
    {
      name: 'empty query',
      send: () => json('/rag/search', { query: '' }),
      status: 400,
      message: /query must not be empty/,
    },
    {
      name: '100 kB chat message',
      send: () => json('/chat', { message: 'why '.repeat(25_000) }),
      status: 400,
      message: /message must be at most/,
    },
    {
      name: 'NUL bytes in a document title and text',
      send: () => json('/documents/text', { title: 'Run\u0000book', text: 'Fail\u0000over' }),
      status: 400,
      message: /must not contain NUL characters/,
    },
    {
      name: 'NUL bytes in a search query',
      send: () => json('/rag/search', { query: 'fail\u0000over' }),
      status: 400,
      message: /must not contain NUL characters/,
    },
    {
      name: 'NUL bytes in a chat message',
      send: () => json('/chat', { message: 'hello\u0000' }),
      status: 400,
      message: /must not contain NUL characters/,
    },
    {
      name: 'NUL byte in a query-string search',
      send: () => send(url('/documents?search=run%00book')),
      status: 400,
      message: /must not contain NUL characters/,
    },
    {
      name: 'NUL byte in a bank search',
      send: () => send(url('/question-banks?search=%00')),
      status: 400,
      message: /must not contain NUL characters/,
    },
    // --- pagination ---
    {
      name: 'page=-1',
      send: () => send(url('/documents?page=-1')),
      status: 400,
      message: /page must be 1 or more/,
    },
    {
      name: 'limit=1e9 is capped, not obeyed',
      send: () => send(url('/conversations?limit=1e9')),
      status: [200, 400],
      check: (body, response) => {
        if (response.status === 200) expect(body.limit).toBeLessThanOrEqual(100);
        else expect(body.message).toEqual(expect.arrayContaining([expect.stringMatching(/limit/)]));
      },
    },
    {
      name: 'page=abc',
      send: () => send(url(`/question-banks?page=abc`)),
      status: 400,
      message: /page must be an integer/,
    },
    // --- ids ---
    {
      name: 'unknown id (a valid UUID)',
      send: () => send(url(`/documents/${UNKNOWN_UUID}`)),
      status: 404,
      message: /./,
    },
    {
      name: 'invalid id (not a UUID)',
      send: () => send(url("/documents/1' OR '1'='1")),
      status: 400,
      message: /uuid/i,
    },
    {
      name: 'unknown conversation id in chat',
      send: () => json('/chat', { conversationId: UNKNOWN_UUID, message: 'hello' }),
      status: 404,
      message: /conversation/i,
    },
    {
      name: 'invalid conversation id in chat',
      send: () => json('/chat', { conversationId: '../../etc/passwd', message: 'hello' }),
      status: 400,
      message: /conversationId must be a conversation id/,
    },
    {
      name: 'unknown message id for a trace',
      send: () => send(url(`/messages/${UNKNOWN_UUID}/trace`)),
      status: 404,
      message: /./,
    },
    // --- API keys ---
    {
      name: 'missing key on /admin/queues',
      send: () => fetch(url('/admin/queues')),
      status: 401,
      message: /API key is required/,
      check: (_body, response) =>
        expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm="Lumina admin"/),
    },
    {
      name: 'invalid key on /admin/queues',
      send: () => fetch(url('/admin/queues'), { headers: { 'x-api-key': 'not-the-key-not-the-key' } }),
      status: 401,
      message: /API key is not valid/,
    },
    {
      name: 'missing key on POST /question-banks',
      send: () => anonymousJson('/question-banks', { name: 'sneaky' }),
      status: 401,
      message: /API key is required/,
    },
    {
      name: 'invalid key on POST /question-banks',
      send: () => json('/question-banks', { name: 'sneaky' }, { headers: { 'x-api-key': `${ADMIN_KEY}x` } }),
      status: 401,
      message: /API key is not valid/,
    },
    {
      name: 'key in basic auth with the wrong password',
      send: () =>
        json(
          '/question-banks',
          { name: 'sneaky' },
          { headers: { authorization: `Basic ${Buffer.from('admin:nope').toString('base64')}` } },
        ),
      status: 401,
      message: /API key is not valid/,
    },
    {
      name: 'malformed basic auth',
      send: () => fetch(url('/conversations'), { headers: { authorization: 'Basic !!!not-base64' } }),
      status: 401,
      message: /API key is required/,
    },
    {
      name: 'missing key on deleting a bank',
      send: () => fetch(url(`/question-banks/${UNKNOWN_UUID}`), { method: 'DELETE' }),
      status: 401,
      message: /API key is required/,
    },
    {
      name: 'missing key on an upload (refused before the file is read)',
      send: () => {
        const init = multipart([{ name: 'anonymous.txt', content: 'Not from a key holder.' }]);
        return fetch(url('/documents'), init);
      },
      status: 401,
      message: /API key is required/,
    },
    {
      name: 'missing key on chat and search',
      send: () => anonymousJson('/rag/search', { query: 'failover' }),
      status: 401,
      message: /API key is required/,
    },
    {
      name: 'over-long key',
      send: () => fetch(url('/conversations'), { headers: { 'x-api-key': `lum_${'A'.repeat(4000)}` } }),
      status: 401,
      message: /API key is not valid/,
    },
    {
      name: 'SQL injection as the key',
      send: () => fetch(url('/conversations'), { headers: { 'x-api-key': SQL_INJECTIONS[1] } }),
      status: 401,
      message: /API key is not valid/,
    },
    {
      name: 'revoked key',
      send: () => fetch(url('/conversations'), { headers: { 'x-api-key': revokedKey } }),
      status: 401,
      message: /not valid: it is unknown or has been revoked/,
    },
    {
      name: 'user key on an admin write (POST /question-templates)',
      send: () =>
        json(
          '/question-templates',
          { name: 'sneaky', kind: 'definition', promptTemplate: 'p' },
          { headers: { 'x-api-key': userKey } },
        ),
      status: 403,
      message: /needs an admin API key; "Hostile user" is a user key/,
    },
    {
      name: 'user key on a bank without a write grant (POST /question-banks)',
      send: () => json('/question-banks', { name: 'sneaky' }, { headers: { 'x-api-key': userKey } }),
      status: 403,
      message: /may not add question banks: it has no write grant on any collection/,
    },
    {
      name: 'user key on an upload',
      send: () => {
        const init = multipart([{ name: 'user.txt', content: 'Not from an admin.' }]);
        return fetch(url('/documents'), { ...init, headers: { ...init.headers, 'x-api-key': userKey } });
      },
      status: 403,
      message: /may not add documents: it has no write grant on any collection/,
    },
    {
      name: 'user key making itself an admin key',
      send: () =>
        json('/auth/keys', { name: 'escalate', role: 'admin' }, { headers: { 'x-api-key': userKey } }),
      status: 403,
      message: /needs an admin API key/,
    },
    {
      name: 'user key on the queue dashboard',
      send: () => fetch(url('/admin/queues/api/queues'), { headers: { 'x-api-key': userKey } }),
      status: 403,
      message: /needs an admin API key/,
    },
    {
      name: 'unknown field and unknown role in a new key',
      send: () => json('/auth/keys', { name: 'k', role: 'root', keyHash: '00' }),
      status: 400,
      message: /property keyHash should not exist|role must be one of admin, user/,
    },
    // --- injection strings through every text input ---
    ...SQL_INJECTIONS.map((injection, i): Case => ({
      name: `SQL injection in the search query #${i + 1}`,
      send: () => json('/rag/search', { query: injection }),
      status: 200,
      check: (body) => expect(Array.isArray(body.results)).toBe(true),
    })),
    {
      name: 'SQL injection in a document title (stored as text)',
      send: () => json('/documents/text', { title: SQL_INJECTIONS[0], text: 'Plain words about backups.' }),
      status: 202,
      grows: { documents: 1 },
      check: async (body) => {
        const [row] = await dataSource.query(`SELECT title FROM documents WHERE id = $1`, [
          body.document?.id ?? body.id,
        ]);
        expect(row.title).toBe(SQL_INJECTIONS[0]);
      },
    },
    {
      name: 'SQL injection in the document title search',
      send: () => send(url(`/documents?search=${encodeURIComponent(SQL_INJECTIONS[1])}`)),
      status: 200,
      check: (body) => expect(body.total).toBe(0),
    },
    {
      name: 'SQL injection in a bank name (stored as text)',
      send: () => json('/question-banks', { name: SQL_INJECTIONS[4] }, { headers: admin }),
      status: 201,
      grows: { question_banks: 1 },
      check: (body) => expect(body.name).toBe(SQL_INJECTIONS[4]),
    },
    {
      name: 'SQL injection in the bank search',
      send: () => send(url(`/question-banks?search=${encodeURIComponent("%' OR 1=1 --")}`)),
      status: 200,
      check: (body) => expect(body.total).toBe(0),
    },
    {
      name: 'SQL injection in an item question (stored as text)',
      send: () =>
        json(`/question-banks/${bankId}/items`, { question: SQL_INJECTIONS[2] }, { headers: admin }),
      status: 201,
      grows: { question_bank_items: 1 },
      check: (body) => expect(body.question).toBe(SQL_INJECTIONS[2]),
    },
    {
      name: 'SQL injection in a chat message',
      send: () => json('/chat', { message: SQL_INJECTIONS[3] }),
      status: 200,
      grows: { conversations: 1 },
      check: async (_body, response) => {
        expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
        const rows = await dataSource.query(`SELECT content FROM messages WHERE content = $1`, [
          SQL_INJECTIONS[3],
        ]);
        expect(rows).toHaveLength(1);
      },
    },
    {
      name: 'HTML/script in a bank name: stored as text, returned as JSON',
      send: () => json('/question-banks', { name: SCRIPT, description: SCRIPT }, { headers: admin }),
      status: 201,
      grows: { question_banks: 1 },
      check: (body, response) => {
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(body.name).toBe(SCRIPT);
      },
    },
    {
      name: 'HTML/script in a search query: echoed only inside JSON',
      send: () => json('/rag/search', { query: SCRIPT }),
      status: 200,
      check: (_body, response) => {
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(response.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
      },
    },
    {
      name: 'HTML/script in an unknown route',
      send: () => send(url(`/${encodeURIComponent(SCRIPT)}`)),
      status: 404,
      check: (body, response) => {
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(JSON.stringify(body)).not.toMatch(/<script>/);
      },
    },
    {
      name: 'invalid UTF-16 surrogate ("\\ud800") in a search query',
      send: () => json('/rag/search', '{"query":"fail\\ud800over"}'),
      status: [200, 400],
    },
    {
      name: 'invalid UTF-16 surrogate in a bank name',
      send: () => json('/question-banks', '{"name":"bank \\udc00"}', { headers: admin }),
      status: [201, 400],
      grows: { question_banks: 1 },
    },
  ];

  it('has at least 30 kinds of hostile input', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  for (const hostile of cases) {
    it(`${hostile.name}: answers ${String(hostile.status)}, stays healthy, changes no data it should not`, async () => {
      const before = await counts();
      const response = await hostile.send();
      const text = await response.text();
      const accepted = Array.isArray(hostile.status) ? hostile.status : [hostile.status];
      // The body is part of the expectation so a failure shows what the server said.
      expect({ status: response.status, text: text.slice(0, 300) }).toEqual({
        status: accepted.includes(response.status) ? response.status : accepted.join(' or '),
        text: text.slice(0, 300),
      });
      let body: Json = null;
      if (/json/.test(response.headers.get('content-type') ?? '')) body = JSON.parse(text);
      if (response.status >= 400) {
        expect(response.status).toBeLessThan(500);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(body.statusCode).toBe(response.status);
        expect(text).not.toMatch(/\bat \S+ \(|node_modules|\.ts:\d+/); // no stack trace
        const message = Array.isArray(body.message) ? body.message.join('; ') : String(body.message);
        if (hostile.message) expect(message).toMatch(hostile.message);
      }
      await hostile.check?.(body, response);
      const health = await send(url('/health'));
      expect(health.status).toBe(200);
      if (response.status < 400 && hostile.grows?.documents) await documentsSettled();
      const after = await counts();
      for (const table of TABLES) {
        const grew = after[table] - before[table];
        // A stored document is chunked by the workers: its chunks may appear too.
        const allowed =
          response.status >= 400
            ? 0
            : table === 'chunks' && hostile.grows?.documents
              ? Number.MAX_SAFE_INTEGER
              : (hostile.grows?.[table] ?? 0);
        expect({ table, grew, withinAllowed: grew >= 0 && grew <= allowed }).toEqual({
          table,
          grew,
          withinAllowed: true,
        });
      }
      expect(filesOutsideUploadDir()).toEqual([]);
    });
  }
});
