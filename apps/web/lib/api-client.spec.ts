import { DEFAULT_SETTINGS, resolveSettings } from '@lumina/shared';
import { createApiClient } from './api-client';
import type { FetchLike } from './api/transport';
import { ApiError } from './api-errors';

const BASE = 'http://127.0.0.1:3000';

interface Recorded {
  url: string;
  init: RequestInit;
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function fakeFetch(answer: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: Recorded[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init });
    return answer(url, init);
  };
  return { fetch, calls };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** A GET /health answer as the server sends it (Redis down when degraded). */
function healthReport(status: 'ok' | 'degraded') {
  return {
    status,
    database: { status: 'up', driver: 'pglite', latencyMs: 1 },
    redis:
      status === 'ok'
        ? { status: 'up', latencyMs: 1 }
        : { status: 'down', latencyMs: 2000, error: 'no answer within 2000 ms' },
    llm: { configured: false, model: null, search: { source: 'offline', model: null }, local: null },
    reranker: { configured: false, model: null, source: null },
    embedder: { model: 'use-lite-512', dimension: 512, reembedding: null, fallback: null },
    documentLanguages: {},
    uptimeSeconds: 12,
  };
}

const searchBody = {
  query: 'How long is parental leave?',
  settings: resolveSettings({ enableHyDE: true }),
  collectionIds: ['col-1'],
  results: [
    {
      chunkId: 'c1',
      documentId: 'd1',
      documentTitle: 'Handbook',
      externalId: null,
      headingPath: ['Leave', 'Parental leave'],
      anchor: 'parental-leave',
      text: 'Parents get sixteen weeks.',
      score: 0.82,
      spanStart: 40,
      spanEnd: 66,
      similarity: null,
      provenance: [{ branch: 'original:bm25', rank: 1, score: 7.1 }],
    },
  ],
  expansions: { source: 'prf', model: null, variants: ['parental leave length'] },
  hyde: { source: 'llm', model: 'qwen2.5:7b/hyde-v1', passage: 'Parents may take leave.' },
  adaptive: null,
  belowThreshold: false,
  answerability: null,
  timings: { total: 12, perBranch: { 'original:bm25': 4 }, llm: 0, fuse: 1, rerank: 0, answerability: 0 },
  warnings: [],
};

describe('api client: requests', () => {
  it('posts the query with the fully merged settings to /rag/search', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(200, searchBody));
    const client = createApiClient({ baseUrl: `${BASE}/`, fetch });
    const settings = resolveSettings({ enableHyDE: true });

    const response = await client.search('How long is parental leave?', settings);

    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe(`${BASE}/rag/search`);
    expect(calls[0].init.method).toBe('POST');
    expect(JSON.parse(calls[0].init.body as string)).toEqual({
      query: 'How long is parental leave?',
      settings: { ...DEFAULT_SETTINGS, enableHyDE: true },
    });
    expect(response).toEqual(searchBody);
  });

  it('finds a search answer unreadable when a hit lacks the fields the contract requires', async () => {
    const { fetch } = fakeFetch(() =>
      jsonResponse(200, {
        ...searchBody,
        results: [{ chunkId: 'c1', documentId: 'd1', text: 'x', score: 0.5 }],
      }),
    );
    const error = await failure(createApiClient({ baseUrl: BASE, fetch }).search('q', resolveSettings()));

    expect(error.code).toBe('invalid_response');
    expect(error.detail).toBe('POST /rag/search → 200: expected a search answer');
  });

  it('reads the health report, also from a degraded server answering 503', async () => {
    const report = healthReport('degraded');
    const { fetch, calls } = fakeFetch(() => jsonResponse(503, report));
    const health = await createApiClient({ baseUrl: BASE, fetch }).getHealth();

    expect(calls[0].url).toBe(`${BASE}/health`);
    expect(calls[0].init.method).toBe('GET');
    expect(health).toEqual(report);
  });
});

describe('api client: error sentences', () => {
  it('explains that search is missing when the endpoint answers 404', async () => {
    const { fetch } = fakeFetch(() =>
      jsonResponse(404, { statusCode: 404, message: 'Cannot POST /rag/search', error: 'Not Found' }),
    );
    const error = await failure(createApiClient({ baseUrl: BASE, fetch }).search('q', resolveSettings()));

    expect(error.code).toBe('not_found');
    expect(error.status).toBe(404);
    expect(error.message).toBe(
      "Search isn't available on this server yet (POST /rag/search returned 404). Update the Lumina server, " +
        'or check that the web app points to the right API address.',
    );
    expect(error.detail).toBe('POST /rag/search → 404: Cannot POST /rag/search');
  });

  it('passes on a 404 that is about a missing thing rather than a missing endpoint', async () => {
    const { fetch } = fakeFetch(() =>
      jsonResponse(404, { statusCode: 404, message: 'Document d9 was not found', error: 'Not Found' }),
    );
    const error = await failure(createApiClient({ baseUrl: BASE, fetch }).search('q', resolveSettings()));
    expect(error.message).toBe('Document d9 was not found.');
  });

  it('lists every validation message of a 400', async () => {
    const { fetch } = fakeFetch(() =>
      jsonResponse(400, {
        statusCode: 400,
        message: ['settings.topK must not be greater than 50', 'query should not be empty.'],
        error: 'Bad Request',
      }),
    );
    const error = await failure(createApiClient({ baseUrl: BASE, fetch }).search('', resolveSettings()));

    expect(error.code).toBe('invalid_request');
    expect(error.message).toBe(
      "The server didn't accept the request: settings.topK must not be greater than 50; query should not be empty.",
    );
  });

  it('uses a plain message for a 400 without details', async () => {
    const { fetch } = fakeFetch(() =>
      jsonResponse(400, { statusCode: 400, message: 'Bad Request', error: 'Bad Request' }),
    );
    const error = await failure(createApiClient({ baseUrl: BASE, fetch }).search('q', resolveSettings()));
    expect(error.message).toBe(
      "The server didn't accept the request. Check the retrieval settings and try again.",
    );
  });

  it('keeps the reason of a 503 and suggests trying again', async () => {
    const { fetch } = fakeFetch(() =>
      jsonResponse(503, {
        statusCode: 503,
        message: 'The embedding provider is unreachable',
        error: 'Service Unavailable',
      }),
    );
    const error = await failure(createApiClient({ baseUrl: BASE, fetch }).search('q', resolveSettings()));

    expect(error.code).toBe('unavailable');
    expect(error.message).toBe(
      "The server is running but couldn't search your documents right now (The embedding provider is unreachable). " +
        'Try again in a moment.',
    );
  });

  it('hides the internals of a 500 from the person', async () => {
    const { fetch } = fakeFetch(() =>
      jsonResponse(500, {
        statusCode: 500,
        message: 'TypeError: cannot read x of undefined',
        error: 'Internal Server Error',
      }),
    );
    const error = await failure(createApiClient({ baseUrl: BASE, fetch }).search('q', resolveSettings()));

    expect(error.code).toBe('server_error');
    expect(error.message).toBe(
      'The server ran into an unexpected problem while trying to search your documents. The details are in the server log.',
    );
    expect(error.message).not.toContain('TypeError');
    expect(error.detail).toContain('TypeError');
  });

  it('copes with an error body that is not JSON', async () => {
    const { fetch } = fakeFetch(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = await failure(createApiClient({ baseUrl: BASE, fetch }).search('q', resolveSettings()));
    expect(error.message).toBe(
      "The server is running but couldn't search your documents right now. Try again in a moment.",
    );
  });

  it('says when the server cannot be reached', async () => {
    const { fetch } = fakeFetch(() => {
      throw new TypeError('fetch failed');
    });
    const error = await failure(createApiClient({ baseUrl: BASE, fetch }).getHealth());

    expect(error.code).toBe('unreachable');
    expect(error.message).toBe(
      `Couldn't reach the Lumina server at ${BASE}. Check that it is running and that the web app points to the right API address.`,
    );
    expect(error.detail).toBe('GET /health: fetch failed');
  });

  it('says when a success answer cannot be read', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(200, { hits: [] }));
    const error = await failure(createApiClient({ baseUrl: BASE, fetch }).search('q', resolveSettings()));

    expect(error.code).toBe('invalid_response');
    expect(error.message).toBe(
      "The server sent an answer the web app couldn't read. The server and the web app may be different versions.",
    );
  });

  it('reports a cancelled request as aborted, not as an unreachable server', async () => {
    const { fetch } = fakeFetch(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const controller = new AbortController();
    const pending = failure(
      createApiClient({ baseUrl: BASE, fetch }).getHealth({ signal: controller.signal }),
    );
    controller.abort();

    expect((await pending).code).toBe('aborted');
  });

  describe('timeouts', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('gives up after the operation timeout with advice for a slow search', async () => {
      const { fetch } = fakeFetch(
        (_url, init) =>
          new Promise<Response>((_resolve, reject) => {
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      );
      const pending = failure(createApiClient({ baseUrl: BASE, fetch }).search('q', resolveSettings()));
      await jest.advanceTimersByTimeAsync(60_000);
      const error = await pending;

      expect(error.code).toBe('timeout');
      expect(error.message).toBe(
        'The server took longer than 60 seconds to search your documents. ' +
          'Turning off query expansion, HyDE and reranking makes a search faster.',
      );
    });
  });
});

describe('api client: error codes', () => {
  it('takes the code the error body names', async () => {
    const { fetch } = fakeFetch(() =>
      jsonResponse(422, {
        statusCode: 422,
        code: 'too_large',
        message: 'The corpus holds more than 100000 entries',
        error: 'Unprocessable Entity',
      }),
    );
    const error = await failure(createApiClient({ baseUrl: BASE, fetch }).search('q', resolveSettings()));

    expect(error.code).toBe('too_large');
    expect(error.status).toBe(422);
    expect(error.message).toBe(
      'The server refused it as too large: The corpus holds more than 100000 entries.',
    );
  });

  it('derives the code from the status when the body names none (servers before error codes)', async () => {
    const answer = (status: number) => () => jsonResponse(status, { statusCode: status, message: 'No.' });
    const client = (status: number) =>
      createApiClient({ baseUrl: BASE, fetch: fakeFetch(answer(status)).fetch });

    expect((await failure(client(401).createQuestionBank({ name: 'B' }))).code).toBe('unauthorized');
    const forbidden = await failure(client(403).createQuestionBank({ name: 'B' }));
    expect(forbidden.code).toBe('forbidden');
    expect(forbidden.message).toBe('The server refused to create the question bank: No.');
    expect((await failure(client(409).createQuestionBank({ name: 'B' }))).code).toBe('conflict');
    expect((await failure(client(418).createQuestionBank({ name: 'B' }))).code).toBe('unexpected');
  });

  it('falls back to the status when the body names a code it does not know', async () => {
    const { fetch } = fakeFetch(() =>
      jsonResponse(503, {
        statusCode: 503,
        code: 'overheated',
        message: 'The embedding provider is unreachable',
        error: 'Service Unavailable',
      }),
    );
    const error = await failure(createApiClient({ baseUrl: BASE, fetch }).search('q', resolveSettings()));

    expect(error.code).toBe('unavailable');
    expect(error.message).toBe(
      "The server is running but couldn't search your documents right now (The embedding provider is unreachable). " +
        'Try again in a moment.',
    );
  });

  it('says the same sentence for a 403 whether or not the body names forbidden', async () => {
    const body = {
      statusCode: 403,
      message: 'This needs an admin API key; "Alice" is a user key.',
      error: 'Forbidden',
    };
    const without = fakeFetch(() => jsonResponse(403, body));
    const named = fakeFetch(() => jsonResponse(403, { ...body, code: 'forbidden' }));
    const a = await failure(
      createApiClient({ baseUrl: BASE, fetch: without.fetch }).createQuestionBank({ name: 'B' }),
    );
    const b = await failure(
      createApiClient({ baseUrl: BASE, fetch: named.fetch }).createQuestionBank({ name: 'B' }),
    );

    expect(b.code).toBe('forbidden');
    expect(b.message).toBe(a.message);
  });
});

describe('api client: API key', () => {
  it('sends the API key as x-api-key when one is set, and nothing otherwise', async () => {
    let key: string | null = null;
    const { fetch, calls } = fakeFetch(() => jsonResponse(200, healthReport('ok')));
    const client = createApiClient({ baseUrl: BASE, fetch, apiKey: () => key });
    await client.getHealth();
    key = 'lum_a-very-long-api-key';
    await client.getHealth();

    expect((calls[0].init.headers as Record<string, string>)['x-api-key']).toBeUndefined();
    expect((calls[1].init.headers as Record<string, string>)['x-api-key']).toBe('lum_a-very-long-api-key');
  });

  it('marks every request, uploads included, with x-lumina-client (keyless local mode refuses forms without it)', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(202, { documents: [], duplicates: [] }));
    const client = createApiClient({ baseUrl: BASE, fetch });
    await client
      .uploadDocuments([new File(['hello'], 'a.txt', { type: 'text/plain' })])
      .catch(() => undefined);
    await client.getHealth().catch(() => undefined);

    expect(calls).toHaveLength(2);
    expect(calls[0].init.body).toBeInstanceOf(FormData);
    for (const call of calls) {
      expect((call.init.headers as Record<string, string>)['x-lumina-client']).toBe('web');
    }
  });

  it('asks to sign in on a 401', async () => {
    const { fetch } = fakeFetch(() =>
      jsonResponse(401, {
        statusCode: 401,
        message: 'The API key is not valid: it is unknown or has been revoked.',
        error: 'Unauthorized',
      }),
    );
    const error = await failure(createApiClient({ baseUrl: BASE, fetch }).createQuestionBank({ name: 'B' }));
    expect(error.code).toBe('unauthorized');
    expect(error.status).toBe(401);
    expect(error.message).toBe(
      'The server needs an API key to create the question bank. Sign in with your key under "Sign in" at the ' +
        'top of the page (The API key is not valid: it is unknown or has been revoked).',
    );
  });

  it('passes on the reason of a 403 (a user key on an admin route)', async () => {
    const { fetch } = fakeFetch(() =>
      jsonResponse(403, {
        statusCode: 403,
        message: 'This needs an admin API key; "Alice" is a user key.',
        error: 'Forbidden',
      }),
    );
    const error = await failure(createApiClient({ baseUrl: BASE, fetch }).createQuestionBank({ name: 'B' }));
    expect(error.message).toBe(
      'The server refused to create the question bank: This needs an admin API key; "Alice" is a user key.',
    );
  });

  it('reads GET /auth/me, and refuses an answer without a known role', async () => {
    const grants = [{ collectionId: 'c-ops', access: 'read' }];
    const { fetch, calls } = fakeFetch(() =>
      jsonResponse(200, { id: 'k1', name: 'Alice', role: 'user', grants, mode: 'keys' }),
    );
    const client = createApiClient({ baseUrl: BASE, fetch, apiKey: () => 'lum_alice' });
    expect(await client.getIdentity()).toEqual({
      id: 'k1',
      name: 'Alice',
      role: 'user',
      grants,
      mode: 'keys',
    });
    expect(calls[0].url).toBe(`${BASE}/auth/me`);
    expect((calls[0].init.headers as Record<string, string>)['x-api-key']).toBe('lum_alice');

    const odd = fakeFetch(() => jsonResponse(200, { id: 'k1', name: 'Alice', role: 'root' }));
    const error = await failure(createApiClient({ baseUrl: BASE, fetch: odd.fetch }).getIdentity());
    expect(error.code).toBe('invalid_response');
  });
});

describe('api client: API keys (admin)', () => {
  const summary = {
    id: 'k2',
    name: 'Alice laptop',
    role: 'user' as const,
    grants: [{ collectionId: 'c-ops', access: 'write' as const }],
    prefix: 'ab12cd',
    createdAt: '2026-12-01T10:00:00.000Z',
    lastUsedAt: null,
    revokedAt: null,
  };

  it('lists a page of keys, creates one (the only answer with the key) and replaces its grants', async () => {
    const { fetch, calls } = fakeFetch((url, init) => {
      if (init.method === 'GET')
        return jsonResponse(200, { items: [summary], page: 2, limit: 20, total: 21, totalPages: 2 });
      if (init.method === 'POST')
        return jsonResponse(201, {
          ...summary,
          lastUsedAt: undefined,
          revokedAt: undefined,
          key: 'lum_secret',
        });
      return jsonResponse(200, { ...summary, grants: [] });
    });
    const client = createApiClient({ baseUrl: BASE, fetch });

    const page = await client.listKeys({ page: 2, limit: 20 });
    expect(page.items[0]).toEqual(summary);
    const created = await client.createKey({
      name: 'Alice laptop',
      role: 'user',
      grants: summary.grants,
    });
    expect(created.key).toBe('lum_secret');
    const updated = await client.setKeyGrants('k2', { grants: [] });
    expect(updated.grants).toEqual([]);

    expect(calls.map((call) => `${call.init.method} ${call.url}`)).toEqual([
      `GET ${BASE}/auth/keys?page=2&limit=20`,
      `POST ${BASE}/auth/keys`,
      `PUT ${BASE}/auth/keys/k2/grants`,
    ]);
    expect(JSON.parse(calls[1].init.body as string)).toEqual({
      name: 'Alice laptop',
      role: 'user',
      grants: [{ collectionId: 'c-ops', access: 'write' }],
    });
    expect(JSON.parse(calls[2].init.body as string)).toEqual({ grants: [] });
  });

  it('finds a created key unreadable when the answer lacks the key', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(201, summary));
    const error = await failure(
      createApiClient({ baseUrl: BASE, fetch }).createKey({ name: 'A', role: 'admin' }),
    );
    expect(error.code).toBe('invalid_response');
  });

  it("says the server's own sentence when it refuses to revoke the last admin key (409)", async () => {
    const said = 'This is the last active admin key: create another admin key before revoking this one.';
    const { fetch, calls } = fakeFetch(() =>
      jsonResponse(409, { statusCode: 409, code: 'conflict', message: said, error: 'Conflict' }),
    );
    const error = await failure(createApiClient({ baseUrl: BASE, fetch }).revokeKey('k1'));
    expect(calls[0].init.method).toBe('DELETE');
    expect(calls[0].url).toBe(`${BASE}/auth/keys/k1`);
    expect(error.code).toBe('conflict');
    expect(error.message).toBe(said);
  });
});
