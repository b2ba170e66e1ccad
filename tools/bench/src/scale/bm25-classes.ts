import { SeededRandom } from '@lumina/eval';
import type { SyntheticCorpus } from '@lumina/eval';
import { SqlChunkSearch } from '@lumina/server-core';
import type { Bm25SearchStats } from '@lumina/server-core';
import type { BenchDatabase } from './bench-database';
import { CORPUS_SHAPE_SQL, TERMS_BY_DF_SQL } from './bm25-classes.sql';
import { summarizeLatency } from './latency-summary';
import type { LatencySummary } from './latency-summary';

/** Document-frequency bands, as shares of the chunks (rare: at least 3 chunks, at most the larger bound). */
const RARE_MAX_SHARE = 0.0005;
const RARE_MAX_AT_LEAST = 10;
const MID = [0.002, 0.02] as const;
const COMMON = [0.1, 0.3] as const;
/** Where fewer than 4 terms sit in the common band, it widens to this. */
const COMMON_WIDE = [0.05, 0.6] as const;
/** Distinct words taken from a chunk for a HyDE-length query (the search scores its 24 strongest terms). */
const HYDE_WORDS = 36;

export interface Bm25ClassMeasurement {
  name: string;
  queries: number;
  meanTerms: number;
  exhaustive: LatencySummary;
  pruned: LatencySummary;
  /** Mean postings read per query: all of the query terms' (exhaustive), whole lists (pruned). */
  exhaustivePostings: number;
  prunedPostings: number;
  /** Mean postings looked up by key per pruned query (non-essential terms, rescoring). */
  prunedLookups: number;
  /** Share of the class's queries that took the pruned path (MaxScore). */
  prunedShare: number;
  /** Share answered by the intersection pass (the chunks holding every term); the rest ran exhaustively. */
  intersectionShare: number;
  /** Mean chunks the intersection pass found through the GIN index, over the queries it ran for. */
  intersectionChunks: number;
  /** Queries whose pruned top k differed from the exhaustive one (ids, order or a score beyond 1e-9). */
  mismatches: number;
}

export interface Bm25ClassBands {
  rare: [number, number];
  mid: [number, number];
  common: [number, number];
  config: string;
  chunks: number;
}

export interface Bm25ClassOptions {
  k1: number;
  b: number;
  topK: number;
  perClass: number;
  warmup: number;
  seed: number;
  onProgress: (stage: string) => (done: number, total: number) => void;
}

/**
 * BM25 top-k by query class over the loaded corpus, the exhaustive statement and the pruned search side
 * by side on the same queries (alternating which runs first), each pruned result checked against the
 * exhaustive one. Classes: rare terms only; mid-frequency terms; one common term with rare ones; two
 * common with a mid and two rare ones; common terms only; 24 words of a chunk (a HyDE-length passage).
 */
export async function measureBm25Classes(
  db: BenchDatabase,
  corpus: SyntheticCorpus,
  options: Bm25ClassOptions,
): Promise<{ bands: Bm25ClassBands; classes: Bm25ClassMeasurement[] }> {
  const [shape] = await db.query<{ config: string; chunks: number }>(CORPUS_SHAPE_SQL);
  const n = Number(shape.chunks);
  const terms = async (band: readonly [number, number]) =>
    (
      await db.query<{ term: string }>(TERMS_BY_DF_SQL, [band[0], band[1], 500, shape.config, options.seed])
    ).map((row) => row.term);
  const bands: Bm25ClassBands = {
    rare: [3, Math.max(RARE_MAX_AT_LEAST, Math.floor(n * RARE_MAX_SHARE))],
    mid: [Math.ceil(n * MID[0]), Math.floor(n * MID[1])],
    common: [Math.ceil(n * COMMON[0]), Math.floor(n * COMMON[1])],
    config: shape.config,
    chunks: n,
  };
  const rare = await terms(bands.rare);
  const mid = await terms(bands.mid);
  let common = await terms(bands.common);
  if (common.length < 4) {
    bands.common = [Math.ceil(n * COMMON_WIDE[0]), Math.floor(n * COMMON_WIDE[1])];
    common = await terms(bands.common);
  }
  for (const [name, list] of [
    ['rare', rare],
    ['mid', mid],
    ['common', common],
  ] as const) {
    if (list.length < 3)
      throw new Error(`only ${list.length} ${name} terms in the corpus: too small a corpus`);
  }

  const random = new SeededRandom(options.seed);
  const pick = (list: string[], count: number): string[] => {
    const chosen = new Set<string>();
    while (chosen.size < Math.min(count, list.length)) chosen.add(list[random.int(list.length)]);
    return [...chosen];
  };
  const hyde = (): string[] => {
    const words = [...new Set(corpus.texts[random.int(corpus.texts.length)].toLowerCase().split(/\W+/))];
    return words.filter((word) => word.length > 0).slice(0, HYDE_WORDS);
  };
  const classes: [string, () => string[]][] = [
    ['rare only', () => pick(rare, 3)],
    ['mid', () => pick(mid, 3)],
    ['one common + rare', () => [...pick(common, 1), ...pick(rare, 2)]],
    ['two common + rare', () => [...pick(common, 2), ...pick(mid, 1), ...pick(rare, 2)]],
    ['all common', () => pick(common, 3)],
    [`HyDE length (${HYDE_WORDS} words)`, hyde],
  ];

  const search = new SqlChunkSearch(db.dataSource, { k1: options.k1, b: options.b, efSearch: 40 });
  const results: Bm25ClassMeasurement[] = [];
  for (const [name, make] of classes) {
    const queries = Array.from({ length: options.perClass }, () => make().join(' '));
    for (const query of queries.slice(0, options.warmup)) {
      await search.lexicalWithStats(query, options.topK);
      await search.lexicalExhaustive(query, options.topK);
    }
    const report = options.onProgress(`bm25 ${name}`);
    const exhaustiveMs: number[] = [];
    const prunedMs: number[] = [];
    const stats: Bm25SearchStats[] = [];
    let mismatches = 0;
    for (const [i, query] of queries.entries()) {
      const runExhaustive = async () => {
        const started = performance.now();
        const hits = await search.lexicalExhaustive(query, options.topK);
        exhaustiveMs.push(performance.now() - started);
        return hits;
      };
      const runPruned = async () => {
        const started = performance.now();
        const result = await search.lexicalWithStats(query, options.topK);
        prunedMs.push(performance.now() - started);
        stats.push(result.stats);
        return result.hits;
      };
      let exhaustive;
      let pruned;
      if (i % 2 === 0) {
        pruned = await runPruned();
        exhaustive = await runExhaustive();
      } else {
        exhaustive = await runExhaustive();
        pruned = await runPruned();
      }
      const same =
        pruned.length === exhaustive.length &&
        pruned.every(
          (hit, j) =>
            hit.chunkId === exhaustive[j].chunkId && Math.abs(hit.score - exhaustive[j].score) <= 1e-9,
        );
      if (!same) mismatches += 1;
      report(i + 1, queries.length);
    }
    const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
    results.push({
      name,
      queries: queries.length,
      meanTerms: mean(stats.map((s) => s.terms)),
      exhaustive: summarizeLatency(exhaustiveMs),
      pruned: summarizeLatency(prunedMs),
      exhaustivePostings: mean(stats.map((s) => s.totalPostings)),
      prunedPostings: mean(stats.map((s) => s.postings)),
      prunedLookups: mean(stats.map((s) => s.lookups)),
      prunedShare: stats.filter((s) => s.path === 'pruned').length / Math.max(1, stats.length),
      intersectionShare: stats.filter((s) => s.path === 'intersection').length / Math.max(1, stats.length),
      intersectionChunks: mean(stats.filter((s) => s.intersection > 0).map((s) => s.intersection)),
      mismatches,
    });
  }
  return { bands, classes: results };
}
