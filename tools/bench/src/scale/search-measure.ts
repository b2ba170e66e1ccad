import { recallAt } from '@lumina/eval';
import type { SyntheticCorpus } from '@lumina/eval';
import { searchKnowledge } from '@lumina/rag';
import { CHUNK_EMBEDDING_INDEX, denseSearchSql, SqlChunkSearch, toVectorLiteral } from '@lumina/server-core';
import type { EmbeddingStorage } from '@lumina/server-core';
import type { BenchDatabase } from './bench-database';
import { BenchQueryEmbedder } from './bench-query-embedder';
import { EF_SEARCH_SQL, explainSql } from './search-measure.sql';
import { summarizeLatency } from './latency-summary';
import type { LatencySummary } from './latency-summary';

export const TOP_K = 10;

export interface DenseMeasurement {
  efSearch: number;
  /** Through SqlChunkSearch (TypeORM over the Postgres protocol), as the app searches. */
  latency: LatencySummary;
  /** The same SQL on the direct handle: the database's own time. */
  sqlLatency: LatencySummary;
  recall: number;
  /** Queries with recall@10 below 0.8. */
  poorQueries: number;
  /** Whether the planner used the HNSW index (pgvector ≥ 0.8 costs ef_search: on a small table a large
   * ef_search can make a sequential scan cheaper, and then the "HNSW" latency is the exact scan's). */
  usesIndex: boolean;
}

export interface SearchMeasurements {
  queries: number;
  exact: { latency: LatencySummary; recall: number; queries: number };
  hnsw: DenseMeasurement[];
  bm25: { latency: LatencySummary; meanHits: number };
  hybrid: { efSearch: number; latency: LatencySummary; meanHits: number };
}

export interface MeasureOptions {
  storage: EmbeddingStorage;
  efSearch: number[];
  /** Recall the hybrid search's ef_search must reach (the smallest measured ef_search that does). */
  recallGoal: number;
  warmup: number;
  /** How many queries the (slow) exact scan is timed on. */
  exactQueries: number;
  k1: number;
  b: number;
  /** Exact float32 top-10 chunk ids per query. */
  truth: string[][];
  onProgress: (stage: string) => (done: number, total: number) => void;
}

/** Top-10 latency (one query at a time) and recall@10 for exact, HNSW per ef_search, BM25 and hybrid. */
export async function measureSearches(
  db: BenchDatabase,
  corpus: SyntheticCorpus,
  options: MeasureOptions,
): Promise<SearchMeasurements> {
  const queries = corpus.queries;
  const search = (efSearch: number) =>
    new SqlChunkSearch(db.dataSource, { k1: options.k1, b: options.b, efSearch, storage: options.storage });
  const warm = async (run: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < Math.min(options.warmup, queries.length); i++) await run(i);
  };
  const time = async (stage: string, count: number, run: (i: number) => Promise<void>): Promise<number[]> => {
    const report = options.onProgress(stage);
    const timings: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await run(i);
      timings.push(performance.now() - started);
      report(i + 1, count);
    }
    return timings;
  };

  // Exact scan (no index): the storage type's own precision, without HNSW's approximation.
  const exactSearch = search(40);
  const exactCount = Math.min(options.exactQueries, queries.length);
  const exactRecalls: number[] = [];
  for (let i = 0; i < Math.min(2, options.warmup, queries.length); i++) {
    await exactSearch.dense(Array.from(queries[i].vector), TOP_K, { exact: true });
  }
  const exactTimings = await time('exact scan', exactCount, async (i) => {
    const hits = await exactSearch.dense(Array.from(queries[i].vector), TOP_K, { exact: true });
    exactRecalls.push(
      recallAt(
        hits.map((hit) => hit.chunkId),
        options.truth[i],
      ),
    );
  });

  const hnsw: DenseMeasurement[] = [];
  const sql = denseSearchSql(options.storage);
  for (const efSearch of options.efSearch) {
    const chunks = search(efSearch);
    const recalls: number[] = [];
    await warm((i) => chunks.dense(Array.from(queries[i].vector), TOP_K));
    const timings = await time(`hnsw ef=${efSearch}`, queries.length, async (i) => {
      const hits = await chunks.dense(Array.from(queries[i].vector), TOP_K);
      recalls.push(
        recallAt(
          hits.map((hit) => hit.chunkId),
          options.truth[i],
        ),
      );
    });
    await db.query(EF_SEARCH_SQL.set, [String(efSearch)]);
    const plan = await db.query<Record<string, unknown>>(explainSql(sql), [
      toVectorLiteral(Array.from(queries[0].vector)),
      TOP_K,
      null,
      null,
    ]);
    const usesIndex = plan.some((line) => String(Object.values(line)[0]).includes(CHUNK_EMBEDDING_INDEX));
    const sqlTimings = await time(`hnsw ef=${efSearch} (sql)`, queries.length, async (i) => {
      await db.query(sql, [toVectorLiteral(Array.from(queries[i].vector)), TOP_K, null, null]);
    });
    await db.query(EF_SEARCH_SQL.reset);
    hnsw.push({
      efSearch,
      latency: summarizeLatency(timings),
      sqlLatency: summarizeLatency(sqlTimings),
      recall: mean(recalls),
      poorQueries: recalls.filter((r) => r < 0.8).length,
      usesIndex,
    });
  }

  // Hybrid runs with the smallest measured ef_search that met the recall goal (else the largest).
  const hybridEfSearch =
    hnsw.find((row) => row.recall >= options.recallGoal)?.efSearch ?? Math.max(...options.efSearch);
  const lexical = search(hybridEfSearch);
  let bm25Hits = 0;
  await warm((i) => lexical.lexical(queries[i].text, TOP_K));
  const bm25Timings = await time('bm25', queries.length, async (i) => {
    bm25Hits += (await lexical.lexical(queries[i].text, TOP_K)).length;
  });

  const embedder = new BenchQueryEmbedder(corpus.dimension);
  const ports = { chunks: lexical, embedder };
  const hybrid = async (i: number) => {
    embedder.next = queries[i].vector;
    return searchKnowledge(queries[i].text, { ranker: 'hybrid', topK: TOP_K }, ports, {});
  };
  let hybridHits = 0;
  await warm(hybrid);
  const hybridTimings = await time('hybrid', queries.length, async (i) => {
    const result = await hybrid(i);
    if (result.warnings.length > 0) throw new Error(`hybrid search warned: ${result.warnings.join('; ')}`);
    hybridHits += result.results.length;
  });

  return {
    queries: queries.length,
    exact: { latency: summarizeLatency(exactTimings), recall: mean(exactRecalls), queries: exactCount },
    hnsw,
    bm25: { latency: summarizeLatency(bm25Timings), meanHits: bm25Hits / queries.length },
    hybrid: {
      efSearch: hybridEfSearch,
      latency: summarizeLatency(hybridTimings),
      meanHits: hybridHits / queries.length,
    },
  };
}

function mean(values: number[]): number {
  return values.length ? values.reduce((sum, v) => sum + v, 0) / values.length : NaN;
}
