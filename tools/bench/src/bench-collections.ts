import 'reflect-metadata';
import { availableParallelism, loadavg } from 'node:os';
import { DEFAULT_SEED, generateSyntheticCorpus } from '@lumina/eval';
import type { SyntheticCorpus } from '@lumina/eval';
import { searchKnowledge } from '@lumina/rag';
import type { SearchOptions } from '@lumina/rag';
import {
  BM25_MAX_QUERY_TERMS,
  BM25_SEARCH_SQL,
  denseSearchSql,
  flags,
  loadEnv,
  parseFlags,
  positiveInt,
  progressReporter,
  runCommand,
  SqlChunkSearch,
  toVectorLiteral,
  UsageError,
} from '@lumina/server-core';
import type { EmbeddingStorage } from '@lumina/server-core';
import { openPgliteBenchDatabase, openPostgresBenchDatabase } from './scale/bench-database';
import type { BenchDatabase } from './scale/bench-database';
import { BenchQueryEmbedder } from './scale/bench-query-embedder';
import {
  buildGinIndex,
  buildHnswIndex,
  copyCorpus,
  prepareBulkLoad,
  rebuildBm25Statistics,
  timed,
} from './scale/bulk-load';
import {
  CHUNKS_BY_COLLECTION_SQL,
  CREATE_SMALL_COLLECTION_SQL,
  MOVE_DOCUMENTS_SQL,
} from './scale/collection-measure.sql';
import { summarizeLatency } from './scale/latency-summary';
import { TOP_K } from './scale/search-measure';

const USAGE = `usage:
  npm run bench:collections -- [--chunks 300000] [--collection-chunks 2000] [--queries 100] [--dim 512]
                               [--storage halfvec|vector] [--ef-search 100] [--warmup 10] [--seed ${DEFAULT_SEED}]

Does a search in one small collection cost what it costs in an installation holding only that
collection? Loads N synthetic chunks (as bench:scale does) into a fresh database, moves the first
documents (about --collection-chunks chunks) into a collection of their own, and times BM25, dense and
hybrid top-10 searches of that collection alone (one query at a time, through the app's SqlChunkSearch
and searchKnowledge). Then loads only those documents into a second fresh database and times the same
searches there, with no collection filter. Prints both p50s and their ratio side by side, the rows each
search returned, and the plans that make it so. PostgreSQL of DATABASE_URL (a schema of the bench's
own, dropped afterwards), else embedded PGlite in memory.`;

const FLAGS = flags({
  boolean: 'help',
  defaults: {
    chunks: '300000',
    'collection-chunks': '2000',
    queries: '100',
    dim: '512',
    storage: 'halfvec',
    'ef-search': '100',
    warmup: '10',
    seed: String(DEFAULT_SEED),
  },
});

interface Timings {
  bm25: number[];
  dense: number[];
  hybrid: number[];
  /** Rows each dense and BM25 search returned (every one should return TOP_K). */
  shortDense: number;
  shortBm25: number;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, FLAGS);
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const chunks = positiveInt(values.chunks, '--chunks');
  const small = positiveInt(values['collection-chunks'], '--collection-chunks');
  if (small >= chunks) throw new UsageError('--collection-chunks must be smaller than --chunks');
  const storage = values.storage as EmbeddingStorage;
  if (storage !== 'halfvec' && storage !== 'vector')
    throw new UsageError('--storage must be halfvec or vector');
  const options = {
    storage,
    efSearch: positiveInt(values['ef-search'], '--ef-search'),
    warmup: positiveInt(values.warmup, '--warmup'),
    env: loadEnv(),
  };
  const started = Date.now();
  const loadAtStart = loadavg()[0];
  console.error(`generating ${chunks} chunks…`);
  const corpus = generateSyntheticCorpus({
    chunks,
    dimension: positiveInt(values.dim, '--dim'),
    queries: positiveInt(values.queries, '--queries'),
    seed: positiveInt(values.seed, '--seed'),
  });
  const subset = prefixOf(corpus, small);

  // The small collection beside everything else.
  const shared = await load('lumina_bench_shared', corpus, options);
  let inShared: Timings;
  let plans: string[];
  try {
    const [{ id }] = await shared.query<{ id: string }>(CREATE_SMALL_COLLECTION_SQL);
    const ids = subset.documents.map((document) => document.id);
    for (const sql of MOVE_DOCUMENTS_SQL) await shared.query(sql, [ids, id]);
    await shared.query('ANALYZE');
    const sizes = await shared.query<{ id: string; chunks: number }>(CHUNKS_BY_COLLECTION_SQL);
    console.error(`collections: ${sizes.map((row) => `${row.chunks} chunks`).join(', ')}`);
    inShared = await measure(shared, corpus, [id], options);
    plans = await explain(shared, corpus, id, options.storage);
  } finally {
    await shared.close();
  }

  // Only that collection.
  const alone = await load('lumina_bench_alone', subset, options);
  let inAlone: Timings;
  try {
    inAlone = await measure(alone, corpus, null, options);
  } finally {
    await alone.close();
  }

  const p50 = (timings: number[]) => summarizeLatency(timings).p50;
  const lines = [
    `bench:collections: a ${subset.chunkIds.length}-chunk collection beside ${chunks - subset.chunkIds.length} other chunks,`,
    `${corpus.queries.length} queries, top-${TOP_K}, ${storage}, ef_search ${options.efSearch}, ${shared.description}`,
    `${availableParallelism()} cpus, load average ${loadAtStart.toFixed(1)} → ${loadavg()[0].toFixed(1)}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
    '',
    '| Search | p50 alone | p50 in the shared installation | ratio |',
    '| --- | --- | --- | --- |',
    ...(['bm25', 'dense', 'hybrid'] as const).map(
      (name) =>
        `| ${name} | ${p50(inAlone[name]).toFixed(2)} ms | ${p50(inShared[name]).toFixed(2)} ms | ×${(p50(inShared[name]) / p50(inAlone[name])).toFixed(2)} |`,
    ),
    '',
    `searches that returned fewer than ${TOP_K} rows: alone bm25 ${inAlone.shortBm25}, dense ${inAlone.shortDense}; ` +
      `shared bm25 ${inShared.shortBm25}, dense ${inShared.shortDense}`,
    '',
    'plans in the shared installation:',
    ...plans,
  ];
  console.log(lines.join('\n'));
}

/** The first documents of the corpus, holding about `chunks` chunks, with every query. */
function prefixOf(corpus: SyntheticCorpus, chunks: number): SyntheticCorpus {
  const documents = [];
  let end = 0;
  for (const document of corpus.documents) {
    if (end >= chunks) break;
    documents.push(document);
    end = document.firstChunk + document.chunkCount;
  }
  return {
    ...corpus,
    documents,
    chunkIds: corpus.chunkIds.slice(0, end),
    chunkDocument: corpus.chunkDocument.slice(0, end),
    chunkOrdinal: corpus.chunkOrdinal.slice(0, end),
    texts: corpus.texts.slice(0, end),
    spanStart: corpus.spanStart.slice(0, end),
    spanEnd: corpus.spanEnd.slice(0, end),
    vectors: corpus.vectors.slice(0, end * corpus.dimension),
  };
}

async function load(
  schema: string,
  corpus: SyntheticCorpus,
  options: { storage: EmbeddingStorage; env: ReturnType<typeof loadEnv> },
): Promise<BenchDatabase> {
  const { storage, env } = options;
  console.error(`\n[${schema}] loading ${corpus.chunkIds.length} chunks…`);
  const db = env.DATABASE_URL
    ? await openPostgresBenchDatabase(env.DATABASE_URL, schema, corpus.dimension, storage)
    : await openPgliteBenchDatabase(null, corpus.dimension, storage);
  const close = db.close.bind(db);
  const dropSchema = 'dropSchema' in db ? (db.dropSchema as () => Promise<void>).bind(db) : null;
  await prepareBulkLoad(db, 'rebuild');
  await copyCorpus(db, corpus, storage, 5000, progressReporter(`[${schema}] binary COPY`));
  const steps: [string, () => Promise<unknown>][] = [
    ['BM25 statistics', () => rebuildBm25Statistics(db)],
    ['GIN', () => buildGinIndex(db)],
    ['HNSW', () => buildHnswIndex(db, storage, { m: 16, efConstruction: 64, maintenanceWorkMem: '512MB' })],
    ['ANALYZE', () => db.query('ANALYZE')],
  ];
  for (const [name, step] of steps) {
    const done = await timed(step);
    console.error(`[${schema}] ${name} in ${(done.ms / 1000).toFixed(1)} s`);
  }
  return Object.assign(db, {
    close: async () => {
      if (dropSchema) await dropSchema();
      await close();
    },
  });
}

/** BM25, dense and hybrid top-10 of every query in `collectionIds` (null: no collection filter). */
async function measure(
  db: BenchDatabase,
  corpus: SyntheticCorpus,
  collectionIds: string[] | null,
  options: { storage: EmbeddingStorage; efSearch: number; warmup: number; env: ReturnType<typeof loadEnv> },
): Promise<Timings> {
  const search = new SqlChunkSearch(db.dataSource, {
    k1: options.env.BM25_K1,
    b: options.env.BM25_B,
    efSearch: options.efSearch,
    storage: options.storage,
  });
  const filter = collectionIds ? { collectionIds } : {};
  const embedder = new BenchQueryEmbedder(corpus.dimension);
  const searchOptions: Partial<SearchOptions> = { collectionIds };
  const timings: Timings = { bm25: [], dense: [], hybrid: [], shortDense: 0, shortBm25: 0 };
  const queries = corpus.queries;
  const runs: [keyof Pick<Timings, 'bm25' | 'dense' | 'hybrid'>, (i: number) => Promise<number>][] = [
    ['bm25', async (i) => (await search.lexical(queries[i].text, TOP_K, filter)).length],
    ['dense', async (i) => (await search.dense(Array.from(queries[i].vector), TOP_K, filter)).length],
    [
      'hybrid',
      async (i) => {
        embedder.next = queries[i].vector;
        const result = await searchKnowledge(
          queries[i].text,
          { ranker: 'hybrid', topK: TOP_K },
          { chunks: search, embedder },
          searchOptions,
        );
        if (result.warnings.length > 0)
          throw new Error(`hybrid search warned: ${result.warnings.join('; ')}`);
        return result.results.length;
      },
    ],
  ];
  for (const [name, run] of runs) {
    for (let i = 0; i < Math.min(options.warmup, queries.length); i++) await run(i);
    const report = progressReporter(`${name}${collectionIds ? ' (one collection)' : ''}`);
    for (let i = 0; i < queries.length; i++) {
      const begun = performance.now();
      const rows = await run(i);
      timings[name].push(performance.now() - begun);
      if (name === 'bm25' && rows < TOP_K) timings.shortBm25++;
      if (name === 'dense' && rows < TOP_K) timings.shortDense++;
      report(i + 1, queries.length);
    }
  }
  return timings;
}

/** The plans of the BM25 and the small collection's own dense scan in collection `id`. */
async function explain(
  db: BenchDatabase,
  corpus: SyntheticCorpus,
  id: string,
  storage: EmbeddingStorage,
): Promise<string[]> {
  const env = loadEnv();
  const query = corpus.queries[0];
  const bm25 = await db.query<Record<string, string>>(
    `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${BM25_SEARCH_SQL}`,
    [[query.text], env.BM25_K1, env.BM25_B, TOP_K, null, BM25_MAX_QUERY_TERMS, ['english'], [id]],
  );
  const dense = await db.query<Record<string, string>>(
    `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${denseSearchSql(storage, { collectionScan: true })}`,
    [toVectorLiteral(Array.from(query.vector)), TOP_K, null, [id]],
  );
  const lines = (rows: Record<string, string>[]) =>
    rows.map((row) => Object.values(row)[0]).filter((line) => /Scan|Index Cond/.test(line));
  return ['bm25:', ...lines(bm25), "dense (the collection's own scan, exact):", ...lines(dense)];
}

runCommand(main, USAGE);
