import type { TermEvidence } from '../answerability/term-evidence';
import { featureProbeModel } from '../answerability/answerability-model';
import { expansionProbePolicy } from '../expansion/expansion-policy';
import type { ExpansionPolicy } from '../expansion/expansion-policy';
import { LlmHydeGenerator } from '../expansion/llm-hyde-generator';
import { LlmQueryExpander } from '../expansion/llm-query-expander';
import type { HydeGenerator, QueryExpander } from '../expansion/query-expander.port';
import { LearnedReranker } from '../rerank/learned/learned-reranker';
import { LTR_MODEL_FORMAT } from '../rerank/learned/ltr-model';
import type { LtrModel } from '../rerank/learned/ltr-model';
import type { RerankEvidence } from '../rerank/learned/rerank-evidence';
import { LlmListwiseReranker } from '../rerank/llm-listwise-reranker';
import type { Reranker } from '../rerank/reranker.port';
import { searchKnowledge } from './search-knowledge';
import type { SearchPorts } from './search-knowledge';
import { FakeChatModel } from '../testing/fake-chat-model';
import { FakeChunkSearch, FakeEmbedder } from '../testing/fake-search-ports';
import type { FakeChunkSearchOptions } from '../testing/fake-search-ports';

const QUERY = 'replica failover';
const VARIANTS = ['promote the standby', 'switch the primary'];
const PASSAGE = 'Promote the standby replica, then repoint the connection string.';

function ports(
  search: FakeChunkSearchOptions,
  extra: Partial<Omit<SearchPorts, 'chunks' | 'embedder'>> = {},
  embedLatencyMs = 0,
): SearchPorts & { chunks: FakeChunkSearch; embedder: FakeEmbedder } {
  const embedder = new FakeEmbedder(embedLatencyMs);
  return { chunks: new FakeChunkSearch(embedder, search), embedder, ...extra };
}

const expanderReplying = (reply: string | Error, latencyMs = 0) =>
  new LlmQueryExpander(new FakeChatModel(reply, latencyMs, 'fake-llm'));
const hydeReplying = (reply: string | Error, latencyMs = 0) =>
  new LlmHydeGenerator(new FakeChatModel(reply, latencyMs, 'fake-llm'));

/** Hand-made lists: the original query, two variants and the HyDE passage each find some chunks. */
const LISTS: FakeChunkSearchOptions = {
  lexical: {
    [QUERY]: ['a', 'b', 'c'],
    [VARIANTS[0]]: ['b', 'd'],
    [VARIANTS[1]]: ['c', 'a', 'x'],
    [PASSAGE]: ['d', 'e'],
  },
};

describe('searchKnowledge', () => {
  describe('fusion and deduplication', () => {
    it('fuses every branch with RRF (k = 60), once per chunk, with exact scores and provenance', async () => {
      const result = await searchKnowledge(
        QUERY,
        { enableQueryExpansion: true, enableHyDE: true, expansionCount: 2, topK: 10 },
        ports(LISTS, {
          expander: expanderReplying(JSON.stringify({ queries: VARIANTS })),
          hyde: hydeReplying(PASSAGE),
        }),
      );
      const r = (rank: number) => 1 / (60 + rank);
      // a: original#1 + variant-2#2; b: original#2 + variant-1#1; d: variant-1#2 + hyde#1 — all
      // 1/61 + 1/62, best rank 1, so the id decides. c: original#3 + variant-2#1. e, x: one list at #2, #3.
      expect(result.results.map((hit) => [hit.chunkId, hit.score])).toEqual([
        ['a', r(1) + r(2)],
        ['b', r(1) + r(2)],
        ['d', r(1) + r(2)],
        ['c', r(1) + r(3)],
        ['e', r(2)],
        ['x', r(3)],
      ]);
      const provenance = Object.fromEntries(result.results.map((hit) => [hit.chunkId, hit.provenance]));
      expect(provenance.a).toEqual([
        { branch: 'original:bm25', rank: 1, score: 10 },
        { branch: 'variant-2:bm25', rank: 2, score: 9 },
      ]);
      expect(provenance.d).toEqual([
        { branch: 'variant-1:bm25', rank: 2, score: 9 },
        { branch: 'hyde:bm25', rank: 1, score: 10 },
      ]);
      expect(provenance.x).toEqual([{ branch: 'variant-2:bm25', rank: 3, score: 8 }]);
      expect(result.expansions).toEqual({
        source: 'llm',
        model: 'fake-llm/expansion-v1',
        variants: VARIANTS,
      });
      expect(result.hyde).toEqual({ source: 'llm', model: 'fake-llm/hyde-v1', passage: PASSAGE });
      expect(result.warnings).toEqual([]);
    });

    it('fuses the dense and BM25 lists of every branch for the hybrid ranker, with the weights', async () => {
      const result = await searchKnowledge(
        QUERY,
        { ranker: 'hybrid', enableHyDE: true, topK: 10 },
        ports(
          { lexical: { [QUERY]: ['a', 'b'], [PASSAGE]: ['c'] }, dense: { [QUERY]: ['b'], [PASSAGE]: ['a'] } },
          {
            hyde: hydeReplying(PASSAGE),
          },
        ),
        { weights: { lexical: 1, dense: 0.5 } },
      );
      const r = (rank: number, weight = 1) => weight / (60 + rank);
      expect(result.results.map((hit) => [hit.chunkId, hit.score])).toEqual([
        ['a', r(1) + r(1, 0.5)],
        ['b', r(2) + r(1, 0.5)],
        ['c', r(1)],
      ]);
      expect(result.results[0].provenance.map((p) => p.branch)).toEqual(['original:bm25', 'hyde:dense']);
    });

    it('ranks a question in a language the encoder was not trained on by keywords alone, and says so', async () => {
      const lists = { lexical: { [QUERY]: ['a', 'b'] }, dense: { [QUERY]: ['b', 'c'] } };
      const detector = (language: string | null) => ({
        detect: () => language,
        guess: () => ({ language, scores: {}, reliable: true }),
      });
      const options = { weights: { lexical: 1, dense: 0.5 }, denseLanguages: ['en'] };
      const r = (rank: number, weight = 1) => weight / (60 + rank);

      const german = await searchKnowledge(
        QUERY,
        { ranker: 'hybrid', topK: 10 },
        ports(lists, { languages: detector('de') }),
        options,
      );
      expect(german.language).toBe('de');
      // The dense list stays in the trace with no weight: the keyword ranking is kept as it is, and what
      // only the dense list found is not a passage.
      expect(german.results.map((hit) => [hit.chunkId, hit.score])).toEqual([
        ['a', r(1)],
        ['b', r(2)],
      ]);
      expect(german.warnings).toEqual([
        'The question reads as de, and the embedder (fake-embedder) was trained on en only: the hybrid ranks it by keywords.',
      ]);

      const english = await searchKnowledge(
        QUERY,
        { ranker: 'hybrid', topK: 10 },
        ports(lists, { languages: detector('en') }),
        options,
      );
      expect(english.language).toBe('en');
      expect(english.results.map((hit) => hit.chunkId)).toEqual(['b', 'a', 'c']);
      expect(english.warnings).toEqual([]);

      // Not told (too short), an explicit dense ranker, or no list of languages: the dense list counts.
      for (const [language, ranker, denseLanguages] of [
        [null, 'hybrid', ['en']],
        ['de', 'dense', ['en']],
        ['de', 'hybrid', null],
      ] as const) {
        const result = await searchKnowledge(
          QUERY,
          { ranker, topK: 10 },
          ports(lists, { languages: detector(language) }),
          { ...options, denseLanguages },
        );
        // b leads once its dense rank counts (alone, or fused with its second keyword rank).
        expect(result.results[0].chunkId).toBe('b');
        expect(result.warnings).toEqual([]);
      }
    });

    it('keeps the encoder when every searched document is in its languages: the detector misread a short question', async () => {
      const lists = { lexical: { [QUERY]: ['a', 'b'] }, dense: { [QUERY]: ['b', 'c'] } };
      const detector = (language: string) => ({
        detect: () => language,
        guess: () => ({ language, scores: {}, reliable: true }),
      });
      const options = { weights: { lexical: 1, dense: 0.5 }, denseLanguages: ['en'] };
      const withCorpus = (language: string, corpus: string[]) => {
        const search = ports(lists, { languages: detector(language) });
        const asked: unknown[] = [];
        const chunks = Object.assign(search.chunks, {
          corpusLanguages: async (filter?: unknown) => {
            asked.push(filter);
            return corpus;
          },
        });
        return { search: { ...search, chunks }, asked };
      };

      // "Uric Acid From Meat and Sugar" reads as Tagalog; every document is English.
      const misread = withCorpus('tl', ['en']);
      const kept = await searchKnowledge(QUERY, { ranker: 'hybrid', topK: 10 }, misread.search, options);
      expect(kept.language).toBe('tl');
      expect(kept.results[0].chunkId).toBe('b');
      expect(kept.warnings).toEqual([]);
      expect(misread.asked).toHaveLength(1);

      // A German question over documents some of which are German: keywords alone.
      const german = withCorpus('de', ['de', 'en']);
      const routed = await searchKnowledge(QUERY, { ranker: 'hybrid', topK: 10 }, german.search, options);
      expect(routed.results.map((hit) => hit.chunkId)).toEqual(['a', 'b']);
      expect(routed.warnings).toHaveLength(1);

      // Hindi documents, a Hindi question read as Marathi: still keywords alone.
      const marathi = withCorpus('mr', ['hi']);
      const hindi = await searchKnowledge(QUERY, { ranker: 'hybrid', topK: 10 }, marathi.search, options);
      expect(hindi.results.map((hit) => hit.chunkId)).toEqual(['a', 'b']);

      // An English question never asks the corpus.
      const english = withCorpus('en', ['en']);
      await searchKnowledge(QUERY, { ranker: 'hybrid', topK: 10 }, english.search, options);
      expect(english.asked).toEqual([]);
    });

    it("embeds the query and the variants behind the model's query prefix, the HyDE passage without it", async () => {
      const embedder = new FakeEmbedder(0, 'query: ');
      const chunks = new FakeChunkSearch(embedder, {
        dense: { [`query: ${QUERY}`]: ['a'], [`query: ${VARIANTS[0]}`]: ['b'], [PASSAGE]: ['c'] },
      });
      const result = await searchKnowledge(
        QUERY,
        { ranker: 'dense', enableQueryExpansion: true, enableHyDE: true, expansionCount: 2, topK: 10 },
        {
          chunks,
          embedder,
          expander: expanderReplying(JSON.stringify({ queries: VARIANTS })),
          hyde: hydeReplying(PASSAGE),
        },
      );
      expect(embedder.calls.map((call) => call.text).sort()).toEqual(
        [`query: ${QUERY}`, `query: ${VARIANTS[0]} | query: ${VARIANTS[1]}`, PASSAGE].sort(),
      );
      expect(result.results.map((hit) => hit.chunkId).sort()).toEqual(['a', 'b', 'c']);
    });

    it('leaves zero-weight lists out of the expansion and HyDE branches, keeping them for the original query', async () => {
      const search = ports(
        {
          lexical: { [QUERY]: ['a'], [VARIANTS[0]]: ['b'], [PASSAGE]: ['c'] },
          dense: { [QUERY]: ['d', 'a'] },
        },
        {
          expander: expanderReplying(JSON.stringify({ queries: [VARIANTS[0]] })),
          hyde: hydeReplying(PASSAGE),
        },
      );
      const result = await searchKnowledge(
        QUERY,
        { ranker: 'hybrid', enableQueryExpansion: true, enableHyDE: true, expansionCount: 1, topK: 10 },
        search,
        { weights: { lexical: 1, dense: 0 } },
      );
      expect(search.chunks.calls.filter((c) => c.what === 'dense').map((c) => c.text)).toEqual([QUERY]);
      expect(search.embedder.calls.map((c) => c.text)).toEqual([QUERY]);
      // The dense list adds provenance to what the weighted lists found, never a passage of its own.
      expect(result.results.map((hit) => hit.chunkId)).toEqual(['a', 'b', 'c']);
      expect(result.results[0].provenance).toEqual([
        expect.objectContaining({ branch: 'original:bm25', rank: 1 }),
        expect.objectContaining({ branch: 'original:dense', rank: 2 }),
      ]);
    });

    it('keeps the first N distinct variants and warns when the model gave fewer than asked', async () => {
      const result = await searchKnowledge(
        QUERY,
        { enableQueryExpansion: true, expansionCount: 3 },
        ports(LISTS, { expander: expanderReplying(`1. ${VARIANTS[0]}\n2. ${VARIANTS[0]}.\n3. ${QUERY}`) }),
      );
      expect(result.expansions?.variants).toEqual([VARIANTS[0]]);
      expect(result.warnings).toEqual(['Query expansion returned 1 usable variant(s) of the 3 asked for.']);
    });
  });

  describe('concurrency', () => {
    const LLM_MS = 300;
    const SEARCH_MS = 40;

    // Ordering, not wall-clock bounds: a loaded machine delays every timer, but not the order of events.
    // `performance.now()` stamps only say what happened before what.
    it('starts the LLM expansion and HyDE calls together, before the slow query embedding ends', async () => {
      const expansionChat = new FakeChatModel(JSON.stringify({ queries: VARIANTS }), LLM_MS);
      const hydeChat = new FakeChatModel(PASSAGE, LLM_MS);
      const started: number[] = [];
      const ended: number[] = [];
      const timed = async <T>(call: () => Promise<T>): Promise<T> => {
        started.push(performance.now());
        try {
          return await call();
        } finally {
          ended.push(performance.now());
        }
      };
      const timedExpander: QueryExpander = {
        modelId: 'x',
        expand: (q, n, s) => timed(() => new LlmQueryExpander(expansionChat).expand(q, n, s)),
      };
      const timedHyde: HydeGenerator = {
        modelId: 'h',
        generate: (q, s) => timed(() => new LlmHydeGenerator(hydeChat).generate(q, s)),
      };
      const p = ports(
        { ...LISTS, lexicalMs: SEARCH_MS, denseMs: SEARCH_MS },
        { expander: timedExpander, hyde: timedHyde },
        200,
      );
      const result = await searchKnowledge(
        QUERY,
        { ranker: 'hybrid', enableQueryExpansion: true, enableHyDE: true, expansionCount: 2 },
        p,
      );
      expect(started).toHaveLength(2);
      const queryEmbedding = p.embedder.calls.find((call) => call.text === QUERY)!;
      // Both calls began before the query's embedding (200 ms) ended…
      for (const at of started) expect(at).toBeLessThanOrEqual(queryEmbedding.endedAt!);
      // …and before either of them ended: they overlapped, one LLM latency and not two.
      expect(Math.max(...started)).toBeLessThanOrEqual(Math.min(...ended));
      // A timer never fires early, so these lower bounds hold on any machine.
      expect(result.timings.perBranch['llm:expansion']).toBeGreaterThanOrEqual(LLM_MS - 5);
      expect(result.timings.perBranch['llm:hyde']).toBeGreaterThanOrEqual(LLM_MS - 5);
    });

    it('searches the original query while the LLM calls run, and every variant together', async () => {
      const search = { ...LISTS, lexicalMs: SEARCH_MS, denseMs: SEARCH_MS };
      // A second of LLM latency against 80 ms of embedding and search: the order below holds unless this
      // process is kept off the CPU for most of a second.
      const slowLlmMs = 1000;
      let expansionEnded = Infinity;
      const expander = new LlmQueryExpander(
        new FakeChatModel(JSON.stringify({ queries: VARIANTS }), slowLlmMs),
      );
      const p = ports(
        search,
        {
          expander: {
            modelId: expander.modelId,
            expand: async (q, n, s) => {
              try {
                return await expander.expand(q, n, s);
              } finally {
                expansionEnded = performance.now();
              }
            },
          },
          hyde: hydeReplying(PASSAGE, slowLlmMs),
        },
        SEARCH_MS,
      );
      const result = await searchKnowledge(
        QUERY,
        { ranker: 'hybrid', enableQueryExpansion: true, enableHyDE: true, expansionCount: 2 },
        p,
      );
      expect(result.warnings).toEqual([]);
      expect(Object.keys(result.timings.perBranch).sort()).toEqual([
        'hyde',
        'llm:expansion',
        'llm:hyde',
        'original',
        'variant-1',
        'variant-2',
      ]);
      const calls = (text: string) => p.chunks.calls.filter((call) => call.text === text);
      // The original query's searches were over before the expansion answered: they ran while the LLM
      // was answering, not after it.
      expect(calls(QUERY)).toHaveLength(2);
      for (const call of calls(QUERY)) expect(call.endedAt!).toBeLessThan(expansionEnded);
      // The two variants' searches overlap: each started before the other ended.
      const variantCalls = VARIANTS.flatMap(calls);
      expect(variantCalls).toHaveLength(4);
      expect(Math.max(...variantCalls.map((call) => call.startedAt))).toBeLessThanOrEqual(
        Math.min(...variantCalls.map((call) => call.endedAt!)),
      );
    });

    it('embeds all variants in one call', async () => {
      const p = ports(LISTS, { expander: expanderReplying(JSON.stringify({ queries: VARIANTS })) });
      await searchKnowledge(QUERY, { ranker: 'dense', enableQueryExpansion: true, expansionCount: 2 }, p);
      expect(p.embedder.calls.map((call) => call.text)).toEqual([QUERY, VARIANTS.join(' | ')]);
    });
  });

  describe('degraded branches', () => {
    it('turns a timed-out HyDE call into a warning, aborts it, and keeps the other branches', async () => {
      // The answer would take a minute: a result (within jest's 5 s) with this warning is the timeout's.
      const slowChat = new FakeChatModel(PASSAGE, 60_000);
      const result = await searchKnowledge(
        QUERY,
        { enableQueryExpansion: true, enableHyDE: true, expansionCount: 2, topK: 10 },
        ports(LISTS, {
          expander: expanderReplying(JSON.stringify({ queries: VARIANTS })),
          hyde: new LlmHydeGenerator(slowChat),
        }),
        { llmTimeoutMs: 100 },
      );
      expect(result.warnings).toEqual(['HyDE failed: HyDE took longer than 100 ms']);
      expect(slowChat.aborted).toHaveLength(1);
      expect(result.hyde).toBeNull();
      expect(result.expansions?.variants).toEqual(VARIANTS);
      const branches = new Set(result.results.flatMap((hit) => hit.provenance.map((p) => p.branch)));
      expect(branches).toEqual(new Set(['original:bm25', 'variant-1:bm25', 'variant-2:bm25']));
    });

    it('turns a thrown expansion (5xx) into a warning and keeps the original and HyDE branches', async () => {
      const result = await searchKnowledge(
        QUERY,
        { enableQueryExpansion: true, enableHyDE: true, topK: 10 },
        ports(LISTS, {
          expander: expanderReplying(new Error('the chat endpoint answered 503: overloaded')),
          hyde: hydeReplying(PASSAGE),
        }),
      );
      expect(result.warnings).toEqual(['Query expansion failed: the chat endpoint answered 503: overloaded']);
      expect(result.expansions).toBeNull();
      expect(result.results.map((hit) => hit.chunkId).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    });

    it('turns malformed model output into warnings', async () => {
      const result = await searchKnowledge(
        QUERY,
        { enableQueryExpansion: true, enableHyDE: true },
        ports(LISTS, {
          expander: expanderReplying('{"queries": [oops'),
          hyde: hydeReplying('<think>never finished thinking'),
        }),
      );
      expect(result.warnings).toHaveLength(2);
      expect(result.warnings[0]).toMatch(/^Query expansion failed: the model's answer is not valid JSON/);
      expect(result.warnings[1]).toMatch(/^HyDE failed: the model wrote no HyDE passage/);
      expect(result.results.map((hit) => hit.chunkId)).toEqual(['a', 'b', 'c']);
    });

    it("keeps the variants that could be searched when one variant's search fails", async () => {
      const result = await searchKnowledge(
        QUERY,
        { enableQueryExpansion: true, expansionCount: 2, topK: 10 },
        ports(
          { ...LISTS, failLexical: [VARIANTS[1]] },
          { expander: expanderReplying(JSON.stringify({ queries: VARIANTS })) },
        ),
      );
      expect(result.warnings).toEqual([
        `Searching some variants failed: variant-2: lexical search failed for "${VARIANTS[1]}"`,
      ]);
      const branches = new Set(result.results.flatMap((hit) => hit.provenance.map((p) => p.branch)));
      expect(branches).toEqual(new Set(['original:bm25', 'variant-1:bm25']));
    });

    it('still answers from the LLM branches when the original search fails', async () => {
      const result = await searchKnowledge(
        QUERY,
        { enableHyDE: true },
        ports({ ...LISTS, failLexical: [QUERY] }, { hyde: hydeReplying(PASSAGE) }),
      );
      expect(result.warnings).toEqual([
        `The original query's search failed: lexical search failed for "${QUERY}"`,
      ]);
      expect(result.results.map((hit) => hit.chunkId)).toEqual(['d', 'e']);
    });

    it("aborts the LLM calls when the caller's signal aborts", async () => {
      const chat = new FakeChatModel(PASSAGE, 5000);
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('the client closed the connection')), 50);
      const started = performance.now();
      const result = await searchKnowledge(
        QUERY,
        { enableQueryExpansion: true, enableHyDE: true },
        ports(LISTS, { expander: new LlmQueryExpander(chat), hyde: new LlmHydeGenerator(chat) }),
        {},
        controller.signal,
      );
      expect(performance.now() - started).toBeLessThan(500);
      expect(chat.aborted).toHaveLength(2);
      expect(result.warnings).toEqual([
        'Query expansion failed: the client closed the connection',
        'HyDE failed: the client closed the connection',
      ]);
    });
  });

  describe('offline (no LLM)', () => {
    it('labels expansion and HyDE as pseudo-relevance feedback', async () => {
      const result = await searchKnowledge(
        QUERY,
        { enableQueryExpansion: true, enableHyDE: true, expansionCount: 1 },
        ports({ lexical: { [QUERY]: ['a', 'b'] } }),
      );
      expect(result.expansions?.source).toBe('prf');
      expect(result.expansions?.model).toBeNull();
      expect(result.hyde).toEqual({ source: 'prf', model: null, passage: 'text of a\n\ntext of b' });
    });
  });

  describe('adaptive expansion and HyDE', () => {
    /** A one-feature policy whose confidence is σ(bias): sure (skip) or unsure (run). */
    const policy = (bias: number): ExpansionPolicy => ({
      ...expansionProbePolicy(),
      version: 'adaptive-test-v1',
      features: ['coverageTop1'],
      mean: [0],
      scale: [1],
      weights: [1],
      bias,
      threshold: 0.5,
    });
    const evidence = (_query: string, chunkIds: string[]): TermEvidence => ({
      corpus: { chunks: 100, avgLength: 10 },
      bm25: { k1: 1.2, b: 0.75 },
      terms: [
        { term: 'replica', qtf: 1, df: 3 },
        { term: 'failover', qtf: 1, df: 2 },
      ],
      passages: chunkIds.map((chunkId, i) => ({
        chunkId,
        length: 10,
        tf: (i === 0 ? { replica: 1, failover: 1 } : {}) as Record<string, number>,
      })),
    });
    const llm = () => {
      const expansionChat = new FakeChatModel(JSON.stringify({ queries: VARIANTS }));
      const hydeChat = new FakeChatModel(PASSAGE);
      return {
        expansionChat,
        hydeChat,
        expander: new LlmQueryExpander(expansionChat),
        hyde: new LlmHydeGenerator(hydeChat),
      };
    };
    const ADAPTIVE = { enableQueryExpansion: 'adaptive', enableHyDE: 'adaptive', expansionCount: 2 } as const;

    it('skips both branches, and makes no LLM call, where the original ranking is sure enough', async () => {
      const model = llm();
      const result = await searchKnowledge(
        QUERY,
        ADAPTIVE,
        ports({ ...LISTS, termEvidence: evidence }, model),
        { expansionPolicy: policy(3) },
      );
      expect(model.expansionChat.requests).toHaveLength(0);
      expect(model.hydeChat.requests).toHaveLength(0);
      expect(result.expansions).toBeNull();
      expect(result.hyde).toBeNull();
      expect(result.results.map((r) => r.chunkId)).toEqual(['a', 'b', 'c']);
      // coverageTop1 is 1 (both words in the best passage): confidence σ(3 + 1).
      expect(result.adaptive).toEqual({
        policyVersion: 'adaptive-test-v1',
        confidence: 0.982014,
        threshold: 0.5,
        skipped: ['expansion', 'hyde'],
        ran: [],
        features: { coverageTop1: 1 },
        contributions: { coverageTop1: 1 },
      });
      expect(result.warnings).toEqual([]);
    });

    it('runs both branches where the confidence is under the threshold', async () => {
      const model = llm();
      const result = await searchKnowledge(
        QUERY,
        ADAPTIVE,
        ports({ ...LISTS, termEvidence: evidence }, model),
        { expansionPolicy: policy(-3) },
      );
      expect(model.expansionChat.requests).toHaveLength(1);
      expect(model.hydeChat.requests).toHaveLength(1);
      expect(result.expansions?.variants).toEqual(VARIANTS);
      expect(result.hyde?.passage).toBe(PASSAGE);
      expect(result.adaptive).toMatchObject({
        confidence: 0.119203,
        skipped: [],
        ran: ['expansion', 'hyde'],
      });
    });

    it('never runs an adaptive branch measured worse than off, whatever the confidence', async () => {
      const model = llm();
      const result = await searchKnowledge(
        QUERY,
        ADAPTIVE,
        ports({ ...LISTS, termEvidence: evidence }, model),
        { expansionPolicy: policy(-3), measuredWorse: ['hyde'] },
      );
      expect(model.expansionChat.requests).toHaveLength(1);
      expect(model.hydeChat.requests).toHaveLength(0);
      expect(result.hyde).toBeNull();
      expect(result.adaptive).toMatchObject({
        skipped: ['hyde'],
        ran: ['expansion'],
        measuredWorse: ['hyde'],
      });

      // Both measured worse: neither runs, and no policy is needed to say so.
      const none = llm();
      const both = await searchKnowledge(QUERY, ADAPTIVE, ports(LISTS, none), {
        measuredWorse: ['expansion', 'hyde'],
      });
      expect([none.expansionChat.requests.length, none.hydeChat.requests.length]).toEqual([0, 0]);
      expect(both.adaptive).toMatchObject({
        policyVersion: null,
        skipped: ['expansion', 'hyde'],
        ran: [],
        measuredWorse: ['expansion', 'hyde'],
      });
      expect(both.warnings).toEqual([]);
      // A branch switched on (not adaptive) still runs: the bank's figures only bind the policy.
      const on = llm();
      await searchKnowledge(
        QUERY,
        { enableQueryExpansion: true, enableHyDE: 'adaptive', expansionCount: 2 },
        ports(LISTS, on),
        { measuredWorse: ['expansion', 'hyde'] },
      );
      expect([on.expansionChat.requests.length, on.hydeChat.requests.length]).toEqual([1, 0]);
    });

    it('decides only for the adaptive branch: an enhancement switched on runs whatever the confidence', async () => {
      const model = llm();
      const result = await searchKnowledge(
        QUERY,
        { enableQueryExpansion: true, enableHyDE: 'adaptive', expansionCount: 2 },
        ports({ ...LISTS, termEvidence: evidence }, model),
        { expansionPolicy: policy(3) },
      );
      expect(model.expansionChat.requests).toHaveLength(1);
      expect(model.hydeChat.requests).toHaveLength(0);
      expect(result.adaptive).toMatchObject({ skipped: ['hyde'], ran: [] });
    });

    it('runs the adaptive branches, and says why, without a policy or without term evidence', async () => {
      for (const [search, options] of [
        [{ ...LISTS, termEvidence: evidence }, {}],
        [LISTS, { expansionPolicy: policy(3) }],
      ] as const) {
        const model = llm();
        const result = await searchKnowledge(QUERY, ADAPTIVE, ports(search, model), options);
        expect(model.expansionChat.requests).toHaveLength(1);
        expect(model.hydeChat.requests).toHaveLength(1);
        expect(result.adaptive).toMatchObject({ policyVersion: null, ran: ['expansion', 'hyde'] });
        expect(result.warnings).toEqual(['No expansion policy is configured, so the adaptive branches ran.']);
      }
    });

    it('reads the term evidence once when the adaptive and the answerability decisions ask for the same passages', async () => {
      const asked: string[] = [];
      const counting = (query: string, chunkIds: string[]) => (
        asked.push(chunkIds.join(',')),
        evidence(query, chunkIds)
      );
      const result = await searchKnowledge(
        QUERY,
        ADAPTIVE,
        ports({ ...LISTS, termEvidence: counting }, llm()),
        { expansionPolicy: policy(3), answerabilityModel: { ...featureProbeModel(), threshold: 0 } },
      );
      expect(result.adaptive?.skipped).toEqual(['expansion', 'hyde']);
      expect(result.answerability).not.toBeNull();
      expect(asked).toEqual(['a,b,c']);
    });

    it("decides a hybrid search with the model fitted on the hybrid's searches, unless it ranks by keywords alone", async () => {
      const lists = {
        lexical: { [QUERY]: ['a', 'b'] },
        dense: { [QUERY]: ['b', 'c'] },
        termEvidence: evidence,
      };
      const detector = (language: string) => ({
        detect: () => language,
        guess: () => ({ language, scores: {}, reliable: true }),
      });
      const options = {
        weights: { lexical: 1, dense: 0.5 },
        denseLanguages: ['en'],
        answerabilityModel: { ...featureProbeModel(), version: 'fitted-on-bm25' },
        answerabilityModelsByRanker: { hybrid: { ...featureProbeModel(), version: 'fitted-on-hybrid' } },
      };
      const asked = async (ranker: 'bm25' | 'hybrid', language: string) =>
        (await searchKnowledge(QUERY, { ranker }, ports(lists, { languages: detector(language) }), options))
          .answerability?.modelVersion;
      expect(await asked('hybrid', 'en')).toBe('fitted-on-hybrid');
      expect(await asked('bm25', 'en')).toBe('fitted-on-bm25');
      // Routed to keywords (the encoder reads English only): the search is BM25's, and so is the model.
      expect(await asked('hybrid', 'de')).toBe('fitted-on-bm25');
    });

    it('decides answerability on the original query alone: expansion and HyDE only reorder', async () => {
      // Only 'd' holds the query's words, and only the variants and the HyDE passage find it.
      const onlyD = (_query: string, chunkIds: string[]): TermEvidence => ({
        ...evidence(_query, chunkIds),
        passages: chunkIds.map((chunkId) => ({
          chunkId,
          length: 10,
          tf: (chunkId === 'd' ? { replica: 1, failover: 1 } : {}) as Record<string, number>,
        })),
      });
      const lists: FakeChunkSearchOptions = {
        lexical: { [QUERY]: ['a', 'b', 'c'], [VARIANTS[0]]: ['d'], [VARIANTS[1]]: ['d'], [PASSAGE]: ['d'] },
        termEvidence: onlyD,
      };
      // Answerable when a top-three passage carries most of the query's words.
      const probe = featureProbeModel();
      const model = {
        ...probe,
        weights: probe.features.map((f) => (f === 'coverageTop3' ? 10 : 0)),
        bias: -5,
        threshold: 0.5,
      };
      const alone = await searchKnowledge(QUERY, {}, ports(lists), { answerabilityModel: model });
      const expanded = await searchKnowledge(
        QUERY,
        { enableQueryExpansion: true, enableHyDE: true, expansionCount: 2 },
        ports(lists, llm()),
        { answerabilityModel: model },
      );
      // The other branches put 'd' on top, but the question is still refused as it is alone.
      expect(expanded.results[0]?.chunkId).toBe('d');
      expect(alone.answerability?.answerable).toBe(false);
      expect(expanded.answerability).toEqual(alone.answerability);
    });

    it('with a reranker on, decides on the reranked hits the original query found, with one reranker call', async () => {
      const onlyD = (_query: string, chunkIds: string[]): TermEvidence => ({
        ...evidence(_query, chunkIds),
        passages: chunkIds.map((chunkId) => ({
          chunkId,
          length: 10,
          tf: (chunkId === 'd' ? { replica: 1, failover: 1 } : {}) as Record<string, number>,
        })),
      });
      const lists: FakeChunkSearchOptions = {
        lexical: { [QUERY]: ['a', 'b', 'c'], [VARIANTS[0]]: ['d'], [VARIANTS[1]]: ['d'], [PASSAGE]: ['d'] },
        termEvidence: onlyD,
      };
      const probe = featureProbeModel();
      const model = {
        ...probe,
        weights: probe.features.map((f) => (f === 'coverageTop3' ? 10 : 0)),
        bias: -5,
        threshold: 0.5,
      };
      const calls: string[][] = [];
      const counting: Reranker = {
        modelId: 'counting',
        rerank: async (_query, passages) => {
          calls.push([...passages]);
          return passages.map((_, i) => passages.length - i);
        },
      };
      const settings = {
        enableRerank: true,
        enableQueryExpansion: true,
        enableHyDE: true,
        expansionCount: 2,
      };
      const expanded = await searchKnowledge(
        QUERY,
        settings,
        ports(lists, { ...llm(), reranker: counting }),
        {
          answerabilityModel: model,
        },
      );
      expect(calls).toHaveLength(1);
      expect(expanded.results.map((hit) => hit.chunkId)).toContain('d');
      expect(expanded.answerability?.answerable).toBe(false);
    });

    it('records no decision when nothing is adaptive', async () => {
      const result = await searchKnowledge(
        QUERY,
        { enableQueryExpansion: true, expansionCount: 1 },
        ports({ ...LISTS, termEvidence: evidence }),
        { expansionPolicy: policy(3) },
      );
      expect(result.adaptive).toBeNull();
      expect(result.expansions?.source).toBe('prf');
    });
  });

  describe('reranking', () => {
    const reversing: Reranker = {
      modelId: 'reverse',
      rerank: async (_query, passages) => passages.map((_, i) => i),
    };

    it('reorders the fused candidates by the reranker scores, wide to narrow', async () => {
      const result = await searchKnowledge(
        QUERY,
        { enableRerank: true, topK: 2, candidateK: 3 },
        ports(LISTS, { reranker: reversing }),
      );
      expect(result.results.map((hit) => [hit.chunkId, hit.score])).toEqual([
        ['c', 2],
        ['b', 1],
      ]);
      expect(result.warnings).toEqual([]);
    });

    it('reorders with the LLM listwise reranker', async () => {
      const chat = new FakeChatModel('[3, 1, 2]');
      const result = await searchKnowledge(
        QUERY,
        { enableRerank: true, topK: 3 },
        ports(LISTS, { reranker: new LlmListwiseReranker(chat) }),
      );
      expect(result.results.map((hit) => hit.chunkId)).toEqual(['c', 'a', 'b']);
      expect(chat.requests[0].messages[1].content).toContain('[1] text of a\n[2] text of b\n[3] text of c');
    });

    it('warns and keeps the fused order when no reranker is configured, or when it fails', async () => {
      const none = await searchKnowledge(QUERY, { enableRerank: true }, ports(LISTS));
      expect(none.warnings).toEqual([
        'Reranking was asked for but no reranker is configured; the fused order is kept.',
      ]);
      expect(none.results.map((hit) => hit.chunkId)).toEqual(['a', 'b', 'c']);

      const failing = await searchKnowledge(
        QUERY,
        { enableRerank: true },
        ports(LISTS, { reranker: new LlmListwiseReranker(new FakeChatModel('no idea')) }),
      );
      expect(failing.warnings[0]).toMatch(
        /^Reranking failed, the fused order is kept: the model's ranking names none/,
      );
      expect(failing.results.map((hit) => hit.chunkId)).toEqual(['a', 'b', 'c']);
    });

    describe('with the learned reranker', () => {
      /** A hand-made model that weighs only how close together the query's terms stand. */
      const model: LtrModel = {
        format: LTR_MODEL_FORMAT,
        version: 'proximity-v1',
        features: ['spanDensity', 'bm25'],
        mean: [0.5, 0],
        scale: [0.25, 1],
        weights: [2, 0],
        training: {
          source: 'hand-made',
          queries: 0,
          candidates: 0,
          pairs: 0,
          candidateDepth: 3,
          seed: 1,
          l2: 0,
          maxPairsPerQuery: 0,
          iterations: 0,
          converged: true,
          loss: { initial: 0, final: 0 },
        },
      };
      // "replica failover": a holds both words far apart, b only one, c both side by side.
      const evidence = (_query: string, chunkIds: string[]): RerankEvidence => {
        const positions: Record<string, Record<string, number[]>> = {
          a: { replica: [1], failov: [20] },
          b: { replica: [3] },
          c: { replica: [5], failov: [6] },
        };
        return {
          corpus: { chunks: 10, avgLength: 20 },
          bm25: { k1: 0.9, b: 0.4 },
          terms: [
            { term: 'failov', qtf: 1, df: 2, position: 2 },
            { term: 'replica', qtf: 1, df: 3, position: 1 },
          ],
          passages: chunkIds.map((chunkId) => ({
            chunkId,
            length: 20,
            positions: positions[chunkId] ?? {},
            titleTf: {},
            titleLength: 0,
            headingTf: {},
            headingLength: 0,
          })),
        };
      };

      it('reorders by the fitted model and records its version and each feature contribution', async () => {
        const result = await searchKnowledge(
          QUERY,
          { enableRerank: true, topK: 3, candidateK: 3 },
          ports({ ...LISTS, rerankEvidence: evidence }, { reranker: new LearnedReranker(model) }),
        );
        expect(result.warnings).toEqual([]);
        expect(result.results.map((hit) => hit.chunkId)).toEqual(['c', 'a', 'b']);
        // c: span density 2/2 = 1 → 2 · (1 − 0.5) / 0.25 = 4; a: 2/20 → −3.2; b: 0 → −4.
        expect(result.results.map((hit) => hit.score)).toEqual([4, expect.closeTo(-3.2, 10), -4]);
        expect(result.results[0].rerank).toEqual({
          model: 'ltr:proximity-v1',
          contributions: { spanDensity: 4, bm25: 0 },
        });
      });

      it('embeds the query for a model that weighs its cosine, even with the BM25 ranker', async () => {
        const dense: LtrModel = {
          ...model,
          version: 'cosine-v1',
          features: ['denseCosine'],
          mean: [0.5],
          scale: [0.1],
          weights: [1],
        };
        const search = ports(
          { ...LISTS, rerankEvidence: evidence, similarity: { a: 0.4, b: 0.7, c: 0.5 } },
          { reranker: new LearnedReranker(dense) },
        );
        const result = await searchKnowledge(
          QUERY,
          { ranker: 'bm25', enableRerank: true, topK: 3, candidateK: 3 },
          search,
        );
        expect(result.warnings).toEqual([]);
        expect(search.embedder.calls.map((call) => call.text)).toEqual([QUERY]);
        expect(result.results.map((hit) => hit.chunkId)).toEqual(['b', 'c', 'a']);
        expect(result.results[0].rerank).toEqual({
          model: 'ltr:cosine-v1',
          contributions: { denseCosine: 2 },
        });

        // A model that weighs no dense feature leaves the BM25 search without an embedding call.
        const lexicalOnly = ports(
          { ...LISTS, rerankEvidence: evidence },
          { reranker: new LearnedReranker(model) },
        );
        await searchKnowledge(QUERY, { ranker: 'bm25', enableRerank: true, topK: 3 }, lexicalOnly);
        expect(lexicalOnly.embedder.calls).toEqual([]);
      });

      it('reranks without the cosine, with a warning, when the query cannot be embedded', async () => {
        const dense: LtrModel = {
          ...model,
          version: 'cosine-v1',
          features: ['denseCosine', 'spanDensity'],
          mean: [0.5, 0.5],
          scale: [0.1, 0.25],
          weights: [1, 2],
        };
        const search = ports(
          { ...LISTS, rerankEvidence: evidence },
          { reranker: new LearnedReranker(dense) },
        );
        search.embedder.embed = () => Promise.reject(new Error('the embedder is down'));
        const result = await searchKnowledge(
          QUERY,
          { ranker: 'bm25', enableRerank: true, topK: 3, candidateK: 3 },
          search,
        );
        expect(result.warnings).toEqual(["Reranking without the query's similarity: the embedder is down"]);
        expect(result.results.map((hit) => hit.chunkId)).toEqual(['c', 'a', 'b']);
      });

      it('keeps the fused order with a warning when the index cannot give it its evidence', async () => {
        const result = await searchKnowledge(
          QUERY,
          { enableRerank: true, topK: 3 },
          ports(LISTS, { reranker: new LearnedReranker(model) }),
        );
        expect(result.warnings).toEqual([
          'Reranking failed, the fused order is kept: this index cannot give the learned reranker its evidence',
        ]);
        expect(result.results.map((hit) => hit.chunkId)).toEqual(['a', 'b', 'c']);
        expect(result.results[0].rerank).toBeUndefined();
      });
    });

    it('names the text reranker that ordered the passages', async () => {
      const result = await searchKnowledge(
        QUERY,
        { enableRerank: true, topK: 1 },
        ports(LISTS, { reranker: reversing }),
      );
      expect(result.results[0].rerank).toEqual({ model: 'reverse' });
    });

    it('gives the reranker a deadline', async () => {
      const chat = new FakeChatModel('[1]', 2000);
      const result = await searchKnowledge(
        QUERY,
        { enableRerank: true },
        ports(LISTS, { reranker: new LlmListwiseReranker(chat) }),
        { llmTimeoutMs: 80 },
      );
      expect(result.warnings).toEqual([
        'Reranking failed, the fused order is kept: rerank took longer than 80 ms',
      ]);
      expect(chat.aborted).toHaveLength(1);
    });
  });
});
