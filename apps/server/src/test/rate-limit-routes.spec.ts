import { ApiKeyService } from '../modules/auth/api-key.service';
import { rateLimitBudget } from '../modules/security/rate-limit-budget';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { readJson } from './helpers/http';

const LIMIT = 3;
const ADMIN_KEY = 'rate-limit-routes-admin-key-0123456789';
const SOME_ID = '00000000-0000-4000-8000-000000000000';

interface RouteLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every METHOD template the Nest app routes (Express's router), mutating ones only. */
function mutatingRoutes(server: TestApp): { method: string; template: string }[] {
  const express = server.app.getHttpAdapter().getInstance() as { router: { stack: RouteLayer[] } };
  const routes: { method: string; template: string }[] = [];
  for (const layer of express.router.stack) {
    // Nest's catch-all (`{*path}`) answers unrouted requests; it is not a route of the API.
    if (!layer.route || layer.route.path.includes('*')) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) {
      const verb = method.toUpperCase();
      if (on && rateLimitBudget(verb, layer.route.path) !== null) {
        routes.push({ method: verb, template: layer.route.path });
      }
    }
  }
  return routes;
}

/** The spellings of one path an attacker tries: case, trailing slash, double slash, percent-encoding. */
function variants(path: string): string[] {
  const letters = path.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`);
  return [
    path,
    path.toUpperCase().replace(SOME_ID.toUpperCase(), SOME_ID),
    path.replace(/\/([a-z])/, (_m, c: string) => `/${c.toUpperCase()}`),
    `${path}/`,
    `${path}//`,
    `/${path}`,
    path.replace(/\//g, '//'),
    letters,
    `/${path.slice(1).replace(/\//g, '%2F')}`,
  ];
}

/**
 * Every mutating route counts against a rate limit (search and chat: RATE_LIMIT_PER_MINUTE; the others:
 * RATE_LIMIT_WRITES_PER_MINUTE), keyed by the template of the route a request matched. Of the spellings
 * of a path, those Express routes to the handler count against the same budget, and the others reach no
 * handler (404): no spelling gets past the limit.
 */
describe('rate limits key on the matched route, whatever the spelling of the path (real server, keys mode)', () => {
  let server: TestApp;
  let keys: ApiKeyService;

  beforeAll(async () => {
    server = await startTestApp(
      testEnv({
        ADMIN_API_KEY: ADMIN_KEY,
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
        RATE_LIMIT_WRITES_PER_MINUTE: String(LIMIT),
      }),
    );
    keys = server.app.get(ApiKeyService);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('finds the limited routes, PATCH included', () => {
    const routes = mutatingRoutes(server).map(({ method, template }) => `${method} ${template}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /rag/search',
        'POST /chat',
        'PATCH /conversations/:id',
        'PATCH /question-banks/:id',
        'DELETE /documents/:id',
      ]),
    );
  });

  it('holds every limited route against case, trailing-slash, double-slash and percent-encoded variants', async () => {
    const routes = mutatingRoutes(server);
    const summary: { route: string; handled: number; limited: number; unrouted: number }[] = [];
    for (const { method, template } of routes) {
      // A fresh admin key per route: its own budget, and no 401/403 in the way.
      const { key } = await keys.create(`limits ${method} ${template}`, 'admin');
      const path = template.replace(/:[A-Za-z]+/g, SOME_ID);
      let handled = 0;
      let limited = 0;
      let unrouted = 0;
      // Two rounds of every spelling: far more attempts than the budget.
      for (const spelling of [...variants(path), ...variants(path)]) {
        const response = await fetch(`${server.baseUrl}${spelling}`, {
          method,
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body: '{}',
        });
        const body = await readJson(response).catch(() => ({}));
        if (response.status === 429) limited += 1;
        else if (response.status === 404 && /^Cannot /.test(String(body.message))) unrouted += 1;
        else handled += 1;
      }
      const canonical = await fetch(`${server.baseUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: '{}',
      });
      expect(canonical.status).toBe(429);
      summary.push({ route: `${method} ${template}`, handled, limited, unrouted });
    }
    for (const row of summary) {
      // At most LIMIT reached a handler; the case and trailing-slash spellings that route were counted.
      expect({ ...row, withinLimit: row.handled <= LIMIT }).toMatchObject({ withinLimit: true });
      expect(row.limited).toBeGreaterThan(0);
    }
    expect(summary.length).toBeGreaterThanOrEqual(20);
  }, 120_000);

  it('answers the writes budget with a sentence and Retry-After', async () => {
    const { key } = await keys.create('writes sentence', 'admin');
    const rename = () =>
      fetch(`${server.baseUrl}/Conversations/${SOME_ID}/`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ title: 'x' }),
      });
    for (let i = 0; i < LIMIT; i += 1) expect((await rename()).status).toBe(404);
    const limited = await rename();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await readJson(limited)).message).toMatch(
      /^Too many requests: at most 3 changes \(POST, PUT, PATCH, DELETE\) per minute per client/,
    );
  });

  it("counts the queue dashboard's writes (clean, pause, resume...) against the same writes budget", async () => {
    const { key } = await keys.create('dashboard writes', 'admin');
    const call = (method: string, path: string) =>
      fetch(`${server.baseUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: method === 'GET' ? undefined : '{}',
      });
    // Reads are not counted.
    for (let i = 0; i < LIMIT + 2; i += 1)
      expect((await call('GET', '/admin/queues/api/queues')).status).toBe(200);
    // bull-board is served outside Nest's routing; its writes, in any spelling it routes, count all the same.
    const writes = [
      ['PUT', '/admin/queues/api/queues/ingestion/clean/completed'],
      ['PUT', '/admin/Queues/API/queues/ingestion/pause'],
      ['PUT', '/admin/queues/api/queues/ingestion/resume/'],
    ];
    const statuses: number[] = [];
    for (const [method, path] of [...writes, ...writes]) statuses.push((await call(method, path)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    const limited = await call('PUT', '/admin/queues/api/queues/ingestion/resume');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await readJson(limited)).toEqual({
      statusCode: 429,
      code: 'rate_limited',
      error: 'Too Many Requests',
      message: expect.stringMatching(
        /^Too many requests: at most 3 changes \(POST, PUT, PATCH, DELETE\) per minute per client/,
      ),
    });
    // One budget for every write the client makes: the API's own writes are refused too.
    const rename = await call('PATCH', `/conversations/${SOME_ID}`);
    expect(rename.status).toBe(429);
    // Reads still answer.
    expect((await call('GET', '/admin/queues/api/queues')).status).toBe(200);
  });
});
