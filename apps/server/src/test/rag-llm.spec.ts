import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseExpansionPolicy, reciprocalRankFusion } from '@lumina/rag';
import type { RankedList } from '@lumina/rag';
import { DataSource } from 'typeorm';
import { EMBEDDER } from '../providers/providers.module';
import { readJson } from './helpers/http';
import type { Json } from './helpers/http';
import { ScriptedOpenAiServer, completion } from '@lumina/testing-llm';
import type { RecordedRequest, ScriptedReply } from '@lumina/testing-llm';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

/** The adaptive-expansion policy the project ships, read from its file. */
const SHIPPED_POLICY = parseExpansionPolicy(
  JSON.parse(readFileSync(join(__dirname, '../../../../models/adaptive-scifact-v1.json'), 'utf8')),
);
const QUERY = 'what do we do when the main database goes down';
const SURE_QUERY = 'How many days does write-ahead log archiving keep point-in-time recovery possible?';
const VARIANTS = [
  'promote the standby replica with pg_ctl',
  'point-in-time recovery from nightly base backups',
  'outage post-mortem primary out of disk',
];
const PASSAGE =
  'When the primary database fails, promote the standby replica and repoint the application connection ' +
  'string to the new primary. Failover took four minutes in the last incident.';

type Kind = 'expansion' | 'hyde' | 'rerank-llm';

/** Which prompt a chat request carries. */
function kindOf(request: RecordedRequest): Kind | null {
  if (request.path !== '/v1/chat/completions') return null;
  const system = String((request.body.messages as { content: string }[])[0]?.content ?? '');
  if (system.includes("Rewrite the user's search query")) return 'expansion';
  if (system.includes('Write one passage')) return 'hyde';
  if (system.includes('You rank passages')) return 'rerank-llm';
  return null;
}

/**
 * POST /rag/search with an LLM (and a /v1/rerank endpoint) configured: the scripted OpenAI-compatible
 * server on loopback answers the expansion and HyDE prompts through the real `openai` client.
 */
describe('POST /rag/search with an LLM (scripted OpenAI-compatible server)', () => {
  // 3 s: with 1 s, at a load average of 25 on 2 cores, LLM calls timed out before the scripted server had
  // read them, and arrived there during the next test.
  const LLM_TIMEOUT_MS = 3000;
  let llm: ScriptedOpenAiServer;
  let app: TestApp;

  const search = async (
    body: unknown,
    signal?: AbortSignal,
  ): Promise<{ status: number; body: Json; ms: number }> => {
    const started = performance.now();
    const response = await fetch(`${app.baseUrl}/rag/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
    const json = await readJson(response);
    return { status: response.status, body: json, ms: performance.now() - started };
  };

  /** Canned answers per prompt; `overrides` replace the reply for one kind. */
  const script = (overrides: Partial<Record<Kind, ScriptedReply>> = {}, delayMs = 0) => {
    llm.on((request) => {
      const kind = kindOf(request);
      if (!kind) return null;
      if (overrides[kind]) return overrides[kind];
      if (kind === 'expansion') return { ...completion(JSON.stringify({ queries: VARIANTS })), delayMs };
      if (kind === 'hyde') return { ...completion(PASSAGE), delayMs };
      return null;
    });
  };

  const branchesOf = (body: Json): Set<string> =>
    new Set(body.results.flatMap((r: Json) => r.provenance.map((p: Json) => p.branch)));

  beforeAll(async () => {
    llm = await ScriptedOpenAiServer.start();
    app = await startTestApp(
      testEnv({
        LLM_BASE_URL: llm.baseUrl,
        LLM_MODEL: 'scripted-model',
        LLM_TIMEOUT_MS: String(LLM_TIMEOUT_MS),
        LLM_MAX_RETRIES: '1',
        RERANK_BASE_URL: llm.baseUrl,
        RERANK_MODEL: 'scripted-reranker',
      }),
    );
    await seedDocuments(app.app.get(DataSource), app.app.get(EMBEDDER), RUNBOOK_CORPUS);
  });
  beforeEach(() => llm.reset());
  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  it('sends the expansion and HyDE prompts together, with the model and the query', async () => {
    // Each reply waits half a second, so "together" is an event: both calls are in flight at once.
    script({}, 500);
    const { status, body } = await search({
      query: QUERY,
      settings: { enableQueryExpansion: true, enableHyDE: true, topK: 10 },
    });
    expect(status).toBe(200);
    const calls = llm.requestsTo('/v1/chat/completions');
    expect(calls.map(kindOf).sort()).toEqual(['expansion', 'hyde']);
    for (const call of calls) {
      expect(call.body.model).toBe('scripted-model');
      expect(call.body.temperature).toBe(0);
      expect(call.body.stream).toBeUndefined();
      const messages = call.body.messages as { role: string; content: string }[];
      expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
      expect(messages[1].content).toContain(QUERY);
    }
    const expansion = calls.find((call) => kindOf(call) === 'expansion')!;
    expect((expansion.body.messages as { content: string }[])[0].content).toMatch(
      /exactly 3 different search queries/,
    );
    expect(llm.maxInFlight).toBe(2);
    expect(body.warnings).toEqual([]);
  });

  it.each([
    ['an unsure question runs them', QUERY, 'ran'],
    ['a question the runbook answers word for word skips them', SURE_QUERY, 'skipped'],
  ] as const)(
    'adaptive expansion and HyDE, as the shipped policy decides: %s, and the LLM is called only then',
    async (_label, query, outcome) => {
      script();
      const { status, body } = await search({
        query,
        settings: { enableQueryExpansion: 'adaptive', enableHyDE: 'adaptive', topK: 10 },
      });
      expect(status).toBe(200);
      expect(body.settings).toMatchObject({ enableQueryExpansion: 'adaptive', enableHyDE: 'adaptive' });
      const decision = body.adaptive as Json;
      expect(decision.policyVersion).toBe(SHIPPED_POLICY.version);
      expect(decision.threshold).toBe(SHIPPED_POLICY.threshold);
      expect(Object.keys(decision.features).sort()).toEqual([...SHIPPED_POLICY.features].sort());
      const calls = llm.requestsTo('/v1/chat/completions').map(kindOf).sort();
      if (outcome === 'skipped') {
        expect(decision.confidence).toBeGreaterThanOrEqual(decision.threshold);
        expect(decision.skipped).toEqual(['expansion', 'hyde']);
        expect(calls).toEqual([]);
        expect(body.expansions).toBeNull();
        expect(body.hyde).toBeNull();
      } else {
        expect(decision.confidence).toBeLessThan(decision.threshold);
        expect(decision.ran).toEqual(['expansion', 'hyde']);
        expect(calls).toEqual(['expansion', 'hyde']);
        expect(body.expansions.variants).toEqual(VARIANTS);
      }
      expect(body.warnings).toEqual([]);
    },
  );

  it('labels the LLM expansions and HyDE passage, returns them, and fuses every branch with provenance', async () => {
    script();
    const { body } = await search({
      query: QUERY,
      settings: { ranker: 'bm25', enableQueryExpansion: true, enableHyDE: true, topK: 30 },
    });
    expect(body.expansions).toEqual({
      source: 'llm',
      model: 'scripted-model/expansion-v1',
      variants: VARIANTS,
    });
    expect(body.hyde).toEqual({ source: 'llm', model: 'scripted-model/hyde-v1', passage: PASSAGE });
    expect(branchesOf(body)).toEqual(
      new Set(['original:bm25', 'variant-1:bm25', 'variant-2:bm25', 'variant-3:bm25', 'hyde:bm25']),
    );
    expect(body.timings.perBranch['llm:expansion']).toBeGreaterThan(0);
    expect(body.timings.perBranch['llm:hyde']).toBeGreaterThan(0);

    // The fused ranking is RRF over each branch's own ranking: search each text alone and fuse by hand.
    const lists: RankedList[] = [];
    for (const [name, text] of [
      ['original', QUERY],
      ...VARIANTS.map((variant, i) => [`variant-${i + 1}`, variant]),
      ['hyde', PASSAGE],
    ]) {
      const alone = await search({ query: text, settings: { ranker: 'bm25', topK: 30 } });
      lists.push({
        name: `${name}:bm25`,
        items: alone.body.results.map((r: Json) => ({ id: r.chunkId, score: r.provenance[0].score })),
      });
    }
    const expected = reciprocalRankFusion(lists);
    expect(body.results.map((r: Json) => r.chunkId)).toEqual(expected.map((item) => item.id));
    expect(body.results.map((r: Json) => r.score)).toEqual(expected.map((item) => item.score));
    expect(body.results.map((r: Json) => r.provenance)).toEqual(
      expected.map((item) => item.provenance.map((p) => ({ branch: p.list, rank: p.rank, score: p.score }))),
    );
    // Each chunk once.
    expect(new Set(body.results.map((r: Json) => r.chunkId)).size).toBe(body.results.length);
    expect(body.results[0].documentTitle).toBe('Database runbook');
  });

  it('searches only the lists that can change the ranking: no dense list for variants and HyDE with USE-lite', async () => {
    script();
    const { body } = await search({
      query: QUERY,
      settings: {
        ranker: 'hybrid',
        enableQueryExpansion: true,
        enableHyDE: true,
        expansionCount: 2,
        topK: 30,
      },
    });
    expect(body.expansions.variants).toEqual(VARIANTS.slice(0, 2));
    const branches = branchesOf(body);
    // The local encoder fuses with dense weight 0 (fusion-weights.ts): only the original query, searched
    // while the LLM generates, keeps its dense list, for provenance. With a weighted embedder every
    // branch searches both (libs/rag's searchKnowledge specs).
    expect(branches).toContain('original:dense');
    for (const branch of ['original', 'variant-1', 'variant-2', 'hyde'])
      expect(branches).toContain(`${branch}:bm25`);
    for (const branch of ['variant-1', 'variant-2', 'hyde'])
      expect(branches).not.toContain(`${branch}:dense`);
    expect(body.warnings).toEqual([]);
  });

  it('answers promptly with a warning when the LLM stalls past LLM_TIMEOUT_MS, and closes the request', async () => {
    script({ hyde: { ...completion(PASSAGE), delayMs: 30_000 } });
    const { status, body, ms } = await search({
      query: QUERY,
      settings: { enableQueryExpansion: true, enableHyDE: true },
    });
    expect(status).toBe(200);
    // Long before the stalled reply (30 s): about LLM_TIMEOUT_MS plus the search, with room for a loaded
    // machine.
    expect(ms).toBeLessThan(LLM_TIMEOUT_MS + 10_000);
    expect(body.warnings).toHaveLength(1);
    expect(body.warnings[0]).toMatch(
      /^HyDE failed: (HyDE took longer than|the chat model did not answer within) 3000 ms/,
    );
    expect(body.hyde).toBeNull();
    expect(body.expansions.source).toBe('llm');
    expect(branchesOf(body)).toContain('variant-1:bm25');
    await waitFor(() => llm.aborted.some((request) => kindOf(request) === 'hyde'));
  });

  it('stops the LLM calls when the client goes away', async () => {
    script({}, 30_000);
    const controller = new AbortController();
    const searching = search(
      { query: QUERY, settings: { enableQueryExpansion: true, enableHyDE: true } },
      controller.signal,
    );
    // The client leaves once both LLM calls have arrived (an event, not a guess at how long that takes).
    await waitFor(() => llm.requests.length === 2, 30_000);
    controller.abort();
    await expect(searching).rejects.toThrow();
    await waitFor(() => llm.aborted.length === 2, 30_000);
    // Both calls were closed long before their LLM_TIMEOUT_MS could have closed them: the client's
    // leaving did it, within a few ms of the abort; the bound leaves most of the timeout as slack.
    const closedAt = Date.now();
    for (const request of llm.aborted) expect(closedAt - request.at).toBeLessThan(0.8 * LLM_TIMEOUT_MS);
  });

  it('turns a 5xx from the LLM into a warning after one retry, and keeps the other branches', async () => {
    script({ expansion: { status: 503, json: { error: { message: 'model is loading' } } } });
    const { body } = await search({
      query: QUERY,
      settings: { enableQueryExpansion: true, enableHyDE: true },
    });
    expect(body.warnings).toEqual([
      expect.stringMatching(/^Query expansion failed: the chat endpoint answered 503: .*model is loading/),
    ]);
    expect(llm.requests.filter((request) => kindOf(request) === 'expansion')).toHaveLength(2);
    expect(body.expansions).toBeNull();
    // The default hybrid over the local encoder: its dense list has weight 0, so only the original query
    // searches it (for provenance); the HyDE passage searches BM25 alone.
    expect(branchesOf(body)).toEqual(new Set(['original:bm25', 'original:dense', 'hyde:bm25']));
  });

  it.each([
    ['garbage JSON in the answer', completion('{"queries": ["promote the standby", oops'), /not valid JSON/],
    ['prose instead of a list', completion('I am sorry, I cannot help with that.'), /not a list of queries/],
    ['a body that is not JSON', { raw: '<html>502 Bad Gateway</html>' }, /unreadable answer/],
  ])('turns %s into a warning', async (_label, reply, message) => {
    script({ expansion: reply });
    const { status, body } = await search({
      query: QUERY,
      settings: { enableQueryExpansion: true, enableHyDE: true },
    });
    expect(status).toBe(200);
    expect(body.warnings).toHaveLength(1);
    expect(body.warnings[0]).toMatch(/^Query expansion failed: /);
    expect(body.warnings[0]).toMatch(message);
    expect(body.hyde.source).toBe('llm');
    expect(body.results.length).toBeGreaterThan(0);
  });

  it('reorders the candidates with the /v1/rerank endpoint', async () => {
    // The scripted reranker scores documents by how often they mention "disk" (ties: later ones first).
    llm.on((request) => {
      if (request.path !== '/v1/rerank') return null;
      const documents = request.body.documents as string[];
      return {
        json: {
          results: documents.map((doc, index) => ({
            index,
            relevance_score: (doc.match(/disk/gi)?.length ?? 0) + index / 1000,
          })),
        },
      };
    });
    const plain = await search({ query: 'database failover replica', settings: { topK: 3, candidateK: 10 } });
    const reranked = await search({
      query: 'database failover replica',
      settings: { topK: 3, candidateK: 10, enableRerank: true },
    });
    expect(reranked.body.warnings).toEqual([]);
    const [rerank] = llm.requestsTo('/v1/rerank');
    expect(rerank.body).toEqual({
      model: 'scripted-reranker',
      query: 'database failover replica',
      documents: expect.any(Array),
      top_n: (rerank.body.documents as string[]).length,
    });
    expect(plain.body.results[0].text).not.toMatch(/disk/);
    expect(reranked.body.results[0].documentTitle).toBe('Incident review');
    expect(reranked.body.results[0].text).toMatch(/disk/);
    expect(reranked.body.results.map((r: Json) => r.chunkId)).not.toEqual(
      plain.body.results.map((r: Json) => r.chunkId),
    );
    expect(reranked.body.timings.rerank).toBeGreaterThan(0);
  });

  it('keeps the fused order with a warning when the rerank endpoint fails', async () => {
    llm.on((request) =>
      request.path === '/v1/rerank' ? { status: 400, json: { error: 'bad request' } } : null,
    );
    const plain = await search({ query: 'database failover replica', settings: { topK: 3 } });
    const { body } = await search({
      query: 'database failover replica',
      settings: { topK: 3, enableRerank: true },
    });
    expect(body.warnings).toEqual([
      expect.stringMatching(/^Reranking failed, the fused order is kept: the rerank endpoint answered 400/),
    ]);
    expect(body.results.map((r: Json) => r.chunkId)).toEqual(plain.body.results.map((r: Json) => r.chunkId));
  });

  it.each(['bm25', 'hybrid'])(
    'with %s, calls the LLM for expansion and HyDE at once, in about one LLM call plus one plain search',
    async (ranker) => {
      const LLM_MS = 300;
      script({}, LLM_MS);
      const settings = { ranker, topK: 6 };
      const enhanced = { ...settings, enableQueryExpansion: true, enableHyDE: true };
      // Warm up both paths (model load, query plans), then take the median of five of each.
      await search({ query: QUERY, settings });
      await search({ query: QUERY, settings: enhanced });
      const plainMs: number[] = [];
      const enhancedMs: number[] = [];
      for (let i = 0; i < 5; i++) {
        // A different query each time: no cached query vectors.
        const query = `${QUERY} ${['now', 'today', 'again', 'please', 'quickly'][i]}`;
        plainMs.push((await search({ query, settings })).ms);
        const result = await search({ query: `${query}?`, settings: enhanced });
        expect(result.body.warnings).toEqual([]);
        expect(result.body.expansions.source).toBe('llm');
        enhancedMs.push(result.ms);
      }
      const plain = median(plainMs);
      const withLlm = median(enhancedMs);
      // The event that makes it one LLM latency: expansion and HyDE were waiting on the LLM at once.
      expect(llm.maxInFlight).toBe(2);
      // The time bound is a generous multiple: measured ratios 0.80 (hybrid) and 1.12 (bm25) of
      // LLM + plain on a loaded 2-core machine; 2 leaves room for load and still fails a search that
      // waits for the LLM calls one after the other and then searches.
      const bound = 2 * (LLM_MS + plain);
      console.log(
        `${ranker}: plain search ${plain.toFixed(0)} ms, with expansion + HyDE ${withLlm.toFixed(0)} ms; ` +
          `bound 2 × (${LLM_MS} + ${plain.toFixed(0)}) = ${bound.toFixed(0)} ms; ` +
          `ratio ${(withLlm / (LLM_MS + plain)).toFixed(2)}`,
      );
      expect(withLlm).toBeGreaterThanOrEqual(LLM_MS);
      expect(withLlm).toBeLessThanOrEqual(bound);
    },
  );
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function waitFor(check: () => boolean, ms = 2000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
