import { findJsonTextProblem, MAX_JSON_OBJECT_KEYS } from '@lumina/shared';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { readJson } from './helpers/http';

/** `{"0":0,"1":0,…,"2bi0":0}`: unknown keys, ~830 KB for 100,000 of them (under the 1 MB body limit). */
function unknownKeys(count: number): Record<string, number> {
  const body: Record<string, number> = {};
  for (let i = 0; i < count; i += 1) body[`_${i.toString(36)}`] = 0;
  return body;
}

/** `keys` unknown keys spread over `depth` nested levels. */
function nestedKeys(keys: number, depth: number): Record<string, unknown> {
  const perLevel = Math.ceil(keys / depth);
  let body: Record<string, unknown> = {};
  for (let level = 0; level < depth; level += 1) {
    const outer: Record<string, unknown> = {};
    for (let i = 0; i < perLevel; i += 1) outer[`l${level}k${i}`] = i;
    outer.next = body;
    body = outer;
  }
  return body;
}

/**
 * How much slower than an idle core this machine runs right now: five shape scans of the 100,000-key body
 * take about 12 ms on one idle core (median of three rounds, after two to warm up). The body is read, and
 * the /health/live probes are answered, by this same process, so on a loaded machine both take longer.
 */
function machineSlowdown(): number {
  const bytes = Buffer.from(JSON.stringify(unknownKeys(100_000)));
  const rounds: number[] = [];
  for (let round = 0; round < 5; round += 1) {
    const started = performance.now();
    for (let i = 0; i < 5; i += 1) findJsonTextProblem(bytes);
    rounds.push(performance.now() - started);
  }
  const median = [...rounds.slice(2)].sort((a, b) => a - b)[1];
  return Math.max(1, median / 12);
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/**
 * A body of many unknown keys used to hold the event loop for seconds in class-validator's whitelist
 * check (100,000 keys: 7.3 s on POST /rag/search, 11.3 s on PATCH /conversations/:id). Its shape is now
 * checked as it is parsed: each hostile body is refused with 400 naming the limit, about as fast as an
 * ordinary invalid body, and /health/live keeps answering meanwhile.
 */
describe('validation cost is bounded by the body, not by its key count (real server)', () => {
  let server: TestApp;
  let conversationId: string;

  const send = async (method: string, path: string, body: string) => {
    const started = performance.now();
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body,
    });
    const json = await readJson(response);
    return { status: response.status, json, ms: performance.now() - started };
  };

  beforeAll(async () => {
    server = await startTestApp(testEnv());
    const chat = await fetch(`${server.baseUrl}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello' }),
    });
    const done = /event: done\ndata: (.*)\n/.exec(await chat.text());
    conversationId = JSON.parse(done![1]).conversationId as string;
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('refuses 100,000 unknown keys and 1,000 keys nested 50 deep on POST and PATCH quickly, /health/live answering throughout', async () => {
    const hostile = {
      '100,000 unknown keys': JSON.stringify(unknownKeys(100_000)),
      '1,000 keys nested 50 deep': JSON.stringify(nestedKeys(1000, 50)),
    };
    const routes: [string, string, string][] = [
      ['POST', '/rag/search', JSON.stringify({ query: 'failover', unknown: 1 })],
      ['POST', '/chat', JSON.stringify({ message: 'hello', unknown: 1 })],
      ['PATCH', `/conversations/${conversationId}`, JSON.stringify({ title: 'Renamed', unknown: 1 })],
    ];
    expect(hostile['100,000 unknown keys'].length).toBeGreaterThan(800_000);
    expect(hostile['100,000 unknown keys'].length).toBeLessThan(1024 * 1024);

    /**
     * /health/live latencies, polled every 10 ms while `work` runs. `work` runs again until the poll has
     * `minSamples` latencies: on a fast machine one round of refusals is over in a few polls.
     */
    const liveWhile = async (work: () => Promise<void>, minSamples = 0): Promise<number[]> => {
      const live: number[] = [];
      let polling = true;
      const poller = (async () => {
        while (polling) {
          const started = performance.now();
          const response = await fetch(`${server.baseUrl}/health/live`);
          await response.arrayBuffer();
          live.push(performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      })();
      try {
        let rounds = 0;
        do {
          await work();
          rounds += 1;
        } while (live.length < minSamples && rounds < 10);
      } finally {
        polling = false;
        await poller;
      }
      return live;
    };

    // The yardstick: ordinary invalid bodies (one unknown key, refused by the validation pipe).
    const normalMs = new Map<string, number>();
    const liveNormal = await liveWhile(async () => {
      for (const [method, path, ordinary] of routes) {
        const times: number[] = [];
        for (let i = 0; i < 6; i += 1) {
          const answer = await send(method, path, ordinary);
          expect(answer.status).toBe(400);
          times.push(answer.ms);
        }
        normalMs.set(`${method} ${path}`, percentile(times, 50));
      }
    });

    const results: { route: string; body: string; ms: number; normalMs: number }[] = [];
    const liveHostile = await liveWhile(async () => {
      for (const [method, path] of routes) {
        for (const [name, body] of Object.entries(hostile)) {
          for (let i = 0; i < 3; i += 1) {
            const answer = await send(method, path, body);
            expect({ route: `${method} ${path}`, name, status: answer.status }).toEqual({
              route: `${method} ${path}`,
              name,
              status: 400,
            });
            expect(answer.json.message).toMatch(
              name.startsWith('100,000')
                ? `has 100000 keys; the limit is ${MAX_JSON_OBJECT_KEYS} keys per object`
                : /nested more than 32 levels deep|the limit is 100 keys per object/,
            );
            const route = `${method} ${path}`;
            results.push({ route, body: name, ms: answer.ms, normalMs: normalMs.get(route)! });
          }
        }
      }
    }, 20);

    // Each hostile body is answered within 100 ms of an ordinary one on the same route (median)…
    const slowdown = machineSlowdown();
    for (const [route, body] of routes.flatMap(([method, path]) =>
      Object.keys(hostile).map((name) => [`${method} ${path}`, name] as const),
    )) {
      const times = results.filter((r) => r.route === route && r.body === body);
      const median = percentile(
        times.map((r) => r.ms),
        50,
      );
      expect({
        route,
        body,
        median,
        normal: times[0].normalMs,
        slowdown,
        within: median <= times[0].normalMs + 100 * slowdown,
      }).toEqual(expect.objectContaining({ within: true }));
    }
    // …and /health/live answers throughout as it does beside ordinary requests: before, it waited the
    // seconds each hostile body took (7–13 s), so every probe that met a hostile body was late. On an
    // idle machine the allowance is 600 ms (the ordinary phase's p90 is a few ms), still a tenth of the
    // old wait; both allowances grow with how slow this machine runs right now. (At 300 ms it failed a
    // CI run whose two lanes shared the cores: p90 368 ms against 360, slowest 694 ms: parsing a body of
    // 100,000 keys is itself a few hundred milliseconds of the loop there, not the seconds of the defect.)
    // The bound is on the
    // p90 of the probes, and the slowest probe gets 2 s (under a third of the old wait): one late probe
    // is a scheduling hiccup or a stop-the-world collection of a heap the test lane grew over its
    // earlier suites (509 ms and 550–900 ms were seen in full runs), not a blocked event loop.
    const p90 = { normal: percentile(liveNormal, 90), hostile: percentile(liveHostile, 90) };
    const slowest = Math.max(...liveHostile);
    expect(liveHostile.length).toBeGreaterThan(10);
    const allowance = Math.max(600, 3 * p90.normal + 100) * slowdown;
    expect({
      p90,
      slowest,
      slowdown,
      allowance,
      within: p90.hostile <= allowance && slowest <= 2_000 * slowdown,
    }).toEqual(expect.objectContaining({ within: true }));
  }, 120_000);

  it('still validates ordinary bodies as before', async () => {
    const renamed = await send(
      'PATCH',
      `/conversations/${conversationId}`,
      JSON.stringify({ title: 'Renamed' }),
    );
    expect(renamed.status).toBe(200);
    expect(renamed.json.title).toBe('Renamed');
    const wide = Object.fromEntries(Array.from({ length: MAX_JSON_OBJECT_KEYS }, (_, i) => [`_${i}`, 0]));
    const atLimit = await send(
      'POST',
      '/rag/search',
      JSON.stringify({ query: 'x', ...wide }).replace('"_0":0,', ''),
    );
    expect(atLimit.status).toBe(400);
    // Below the shape limit the validation pipe answers, naming the unknown properties.
    expect(JSON.stringify(atLimit.json.message)).toMatch(/property _1 should not exist/);
  });
});
