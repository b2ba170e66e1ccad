import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { readJson } from './helpers/http';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';

describe('HTTP hardening (real server): rate limits, security headers, error answers', () => {
  let server: TestApp;
  const search = (headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}/rag/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query: 'failover' }),
    });

  beforeAll(async () => {
    server = await startTestApp(
      testEnv({ RATE_LIMIT_PER_MINUTE: '3', REQUEST_BODY_LIMIT: '2kb', UPLOAD_MAX_BYTES: '1024' }),
    );
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
  });

  it('limits POST /rag/search and POST /chat per client, with a readable 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await search()).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await search();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    const body = await readJson(limited);
    expect(body).toMatchObject({ statusCode: 429, code: 'rate_limited' });
    expect(body.message).toMatch(/Too many requests: at most 3 searches and chat messages per minute/);
    // Chat shares the client's budget.
    const chat = await fetch(`${server.baseUrl}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello' }),
    });
    expect(chat.status).toBe(429);
  });

  it('counts each API key separately from the IP address and from the other keys', async () => {
    const createKey = async (name: string): Promise<string> => {
      // Keyless loopback requests are the local admin (no ADMIN_API_KEY in this suite).
      const response = await fetch(`${server.baseUrl}/auth/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, role: 'user' }),
      });
      expect(response.status).toBe(201);
      return (await readJson(response)).key as string;
    };
    const [a, b] = [await createKey('client a'), await createKey('client b')];
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await search({ 'x-api-key': a })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // The same key as a Bearer token is the same client.
    expect((await search({ authorization: `Bearer ${a}` })).status).toBe(429);
    expect((await search({ 'x-api-key': b })).status).toBe(200);
  });

  it('does not limit other routes', async () => {
    for (let i = 0; i < 6; i += 1) expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
  });

  it('sends security headers and keeps the API docs working', async () => {
    const health = await fetch(`${server.baseUrl}/health`);
    expect(health.headers.get('x-content-type-options')).toBe('nosniff');
    expect(health.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(health.headers.get('x-powered-by')).toBeNull();
    const docs = await fetch(`${server.baseUrl}/api/docs`);
    expect(docs.status).toBe(200);
    const csp = docs.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).toMatch(/style-src 'self' 'unsafe-inline'/);
    const html = await docs.text();
    // Every script of the docs page is its own file under /api/docs (no inline script the CSP would block).
    expect(html).not.toMatch(/<script>[^<]/);
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts.some((src) => src.endsWith('swagger-ui-init.js'))).toBe(true);
    for (const src of scripts) {
      const asset = await fetch(new URL(src, `${server.baseUrl}/api/docs/`));
      expect({ src, status: asset.status }).toEqual({ src, status: 200 });
    }
  });

  it('answers malformed JSON with a JSON 400, not an HTML page', async () => {
    const response = await fetch(`${server.baseUrl}/question-banks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await readJson(response)).toEqual({
      statusCode: 400,
      code: 'invalid_request',
      error: 'Bad Request',
      message: 'The request body is not valid JSON.',
    });
  });

  it('gives every error body the code of the shared error contract beside its status and message', async () => {
    const send = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${server.baseUrl}${path}`, init);
      return { status: response.status, body: await readJson(response) };
    };
    const postJson = (path: string, body: string) =>
      send(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

    // 400: the contract's validation pipe (zod), and a service's own check.
    const invalid = await postJson('/question-banks', '{}');
    expect(invalid).toMatchObject({
      status: 400,
      body: { statusCode: 400, code: 'invalid_request', error: 'Bad Request' },
    });
    expect(invalid.body.message).toEqual(expect.arrayContaining([expect.stringMatching(/name/)]));
    const bank = await postJson('/question-banks', '{"name": "Codes"}');
    expect(bank.status).toBe(201);
    const item = { question: 'Where?', expectedSources: [{ documentId: 'nowhere' }] };
    expect(await postJson(`/question-banks/${bank.body.id}/items`, JSON.stringify(item))).toEqual({
      status: 400,
      body: {
        statusCode: 400,
        code: 'invalid_request',
        message: [
          'unknown document "nowhere" (no document of the bank\'s collection has that id or external id)',
        ],
        error: 'Bad Request',
      },
    });

    // 404: an unknown route, and a missing resource.
    expect(await send('/no-such-route')).toEqual({
      status: 404,
      body: { statusCode: 404, code: 'not_found', message: 'Cannot GET /no-such-route', error: 'Not Found' },
    });
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(await send(`/question-banks/${missing}`)).toEqual({
      status: 404,
      body: {
        statusCode: 404,
        code: 'not_found',
        message: `question bank ${missing} not found`,
        error: 'Not Found',
      },
    });

    // 413: a JSON body above REQUEST_BODY_LIMIT, and an uploaded file above UPLOAD_MAX_BYTES.
    expect(await postJson('/question-banks', JSON.stringify({ name: 'x'.repeat(4096) }))).toEqual({
      status: 413,
      body: {
        statusCode: 413,
        code: 'too_large',
        error: 'Payload Too Large',
        message: 'The request body is larger than the limit of 2kb (REQUEST_BODY_LIMIT).',
      },
    });
    const form = new FormData();
    form.append('files', new Blob(['a'.repeat(2048)], { type: 'text/plain' }), 'big.txt');
    const upload = await send('/documents', {
      method: 'POST',
      headers: { 'x-lumina-client': 'test' },
      body: form,
    });
    expect(upload).toEqual({
      status: 413,
      body: {
        statusCode: 413,
        code: 'too_large',
        error: 'Payload Too Large',
        message: expect.stringMatching(/^"big\.txt" is larger than the upload limit/),
      },
    });
  });
});
