import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { chunkUuid, DEFAULT_SEED, exactTopK, generateSyntheticCorpus } from '@lumina/eval';
import type { SyntheticCorpus } from '@lumina/eval';
import { flags, loadEnv, parseFlags, progressReporter, UsageError } from '@lumina/server-core';
import type { EmbeddingStorage } from '@lumina/server-core';
import { openPgliteBenchDatabase, openPostgresBenchDatabase } from './scale/bench-database';
import type { BenchDatabase } from './scale/bench-database';
import {
  buildGinIndex,
  buildHnswIndex,
  copyCorpus,
  prepareBulkLoad,
  rebuildBm25Statistics,
  timed,
} from './scale/bulk-load';
import type { HnswParameters, Timed } from './scale/bulk-load';
import { BM25_COUNTS_SQL, KEPT_CORPUS_SQL } from './scale/bulk-load.sql';
import { databaseSizes, formatBytes } from './scale/database-sizes';
import type { DatabaseSizes } from './scale/database-sizes';
import type { LatencySummary } from './scale/latency-summary';
import { measureBm25Classes } from './scale/bm25-classes';
import type { Bm25ClassBands, Bm25ClassMeasurement } from './scale/bm25-classes';
import { measureSearches, TOP_K } from './scale/search-measure';
import type { SearchMeasurements } from './scale/search-measure';

const USAGE = `usage:
  npm run bench:scale -- --chunks 100000 [--queries 200] [--dim 512] [--ef-search 40,100,200]
                         [--storage vector|halfvec|both] [--data-dir <dir>] [--m 16] [--ef-construction 64]
                         [--maintenance-work-mem 512MB] [--bm25 rebuild|trigger] [--batch 5000]
                         [--warmup 10] [--exact-queries 20] [--seed ${DEFAULT_SEED}] [--json <file>] [--keep]
                         [--search all|bm25] [--bm25-per-class 60] [--reuse]

Loads N synthetic chunks (Zipfian text, clustered unit vectors) into a fresh database with the app's
migrations — embedded PGlite (in memory, or in --data-dir/<storage>), or the PostgreSQL of DATABASE_URL
in a schema of its own (lumina_bench_<storage>, dropped afterwards unless --keep) — by binary COPY, then
builds the BM25 statistics, the GIN and the HNSW index, runs VACUUM ANALYZE (what autovacuum does after a
load of that size), and prints load and build times, sizes, and
top-10 latency (one query at a time) with recall@10 against exact float32 search for the exact scan,
HNSW at each ef_search, BM25 and hybrid (the app's searchKnowledge over SqlChunkSearch). Then BM25 by query
class (rare only; mid; one common + rare; two common + rare; all common; HyDE length), the exhaustive
statement and the pruned top-k on the same queries, p50/p95/p99, postings read, and every pruned top 10
checked against the exhaustive one. --search bm25 skips the HNSW build and the dense searches.
--reuse (PostgreSQL, same --chunks, --dim and --seed as the run that kept it): measures the schema a run
with --keep left, after the migrations it lacks, instead of loading it again (a 1M-chunk load takes
most of half an hour); the schema is kept again.`;

const GOAL_P50_MS = 20;
const GOAL_RECALL = 0.95;

interface StorageReport {
  storage: EmbeddingStorage;
  database: string;
  /** The kept schema measured again (--reuse): no load; `load` holds the VACUUM ANALYZE alone. */
  reused: boolean;
  load: {
    documentsMs: number;
    chunks: Timed & { rowsPerSecond: number; copyBytes: number };
    bm25: Timed & { mode: 'rebuild' | 'trigger'; postings: number; terms: number };
    gin: Timed;
    hnsw: (Timed & HnswParameters) | null;
    analyze: Timed;
  };
  sizes: DatabaseSizes;
  search: SearchMeasurements | null;
  bm25Classes: { bands: Bm25ClassBands; classes: Bm25ClassMeasurement[] };
  notices: string[];
}

const FLAGS = flags({
  string: 'data-dir json',
  boolean: 'keep help reuse',
  defaults: {
    chunks: '100000',
    queries: '200',
    dim: '512',
    'ef-search': '40,100,200',
    storage: 'both',
    m: '16',
    'ef-construction': '64',
    'maintenance-work-mem': '512MB',
    bm25: 'rebuild',
    batch: '5000',
    warmup: '10',
    'exact-queries': '20',
    seed: String(DEFAULT_SEED),
    search: 'all',
    'bm25-per-class': '60',
  },
});

async function main(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, FLAGS);
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const chunks = intArg(values.chunks, '--chunks', 1, 10_000_000);
  const queries = intArg(values.queries, '--queries', 1, 100_000);
  const dimension = intArg(values.dim, '--dim', 2, 4000);
  const efSearch = [
    ...new Set(values['ef-search'].split(',').map((v) => intArg(v.trim(), '--ef-search', 1, 1000))),
  ];
  efSearch.sort((a, b) => a - b);
  const storages = storageArg(values.storage);
  const bm25Mode = values.bm25;
  if (bm25Mode !== 'rebuild' && bm25Mode !== 'trigger')
    throw new UsageError('--bm25 must be rebuild or trigger');
  const hnswParameters: HnswParameters = {
    m: intArg(values.m, '--m', 2, 100),
    efConstruction: intArg(values['ef-construction'], '--ef-construction', 4, 1000),
    maintenanceWorkMem: memoryArg(values['maintenance-work-mem']),
  };
  const batch = intArg(values.batch, '--batch', 1, 1_000_000);
  const warmup = intArg(values.warmup, '--warmup', 0, 10_000);
  const exactQueries = intArg(values['exact-queries'], '--exact-queries', 1, 100_000);
  const seed = intArg(values.seed, '--seed', 0, 2 ** 32 - 1);
  if (values.search !== 'all' && values.search !== 'bm25')
    throw new UsageError('--search must be all or bm25');
  const bm25PerClass = intArg(values['bm25-per-class'], '--bm25-per-class', 1, 100_000);
  const env = loadEnv();
  if (values.reuse && !env.DATABASE_URL) throw new UsageError('--reuse needs DATABASE_URL (a kept schema)');

  const started = Date.now();
  const loadAtStart = loadavg()[0];
  console.error(`generating ${chunks} chunks (${dimension}-d) and ${queries} queries…`);
  const generation = await timed(async () => generateSyntheticCorpus({ chunks, dimension, queries, seed }));
  const corpus = generation.value;
  const truthReport = progressReporter('exact top-10 (float32, in JS)');
  // The dense searches' ground truth; --search bm25 measures no dense search.
  const truth = (values.search === 'all' ? corpus.queries : []).map((query, i) => {
    const top = exactTopK(corpus.vectors, dimension, query.vector, TOP_K).map((hit) => chunkUuid(hit.index));
    truthReport(i + 1, corpus.queries.length);
    return top;
  });

  const reports: StorageReport[] = [];
  for (const storage of storages) {
    reports.push(
      await runStorage(storage, corpus, truth, {
        databaseUrl: env.DATABASE_URL,
        dataDir: values['data-dir'] ? join(values['data-dir'], storage) : null,
        keep: values.keep || values.reuse,
        reuse: values.reuse,
        bm25Mode,
        hnswParameters,
        batch,
        efSearch,
        warmup,
        exactQueries,
        dense: values.search === 'all',
        bm25PerClass,
        seed,
        k1: env.BM25_K1,
        b: env.BM25_B,
      }),
    );
  }

  const header = {
    chunks,
    documents: corpus.documents.length,
    dimension,
    queries,
    warmup,
    seed,
    shape: corpus.shape,
    generationSeconds: generation.ms / 1000,
    cpus: availableParallelism(),
    loadAverage: { start: loadAtStart, end: loadavg()[0] },
    totalSeconds: (Date.now() - started) / 1000,
  };
  console.log(formatReport(header, reports));
  if (values.json) {
    writeFileSync(values.json, JSON.stringify({ ...header, storages: reports }, null, 2));
    console.error(`report written to ${values.json}`);
  }
}

interface RunOptions {
  databaseUrl: string | undefined;
  dataDir: string | null;
  keep: boolean;
  reuse: boolean;
  bm25Mode: 'rebuild' | 'trigger';
  hnswParameters: HnswParameters;
  batch: number;
  efSearch: number[];
  warmup: number;
  exactQueries: number;
  dense: boolean;
  bm25PerClass: number;
  seed: number;
  k1: number;
  b: number;
}

async function runStorage(
  storage: EmbeddingStorage,
  corpus: SyntheticCorpus,
  truth: string[][],
  options: RunOptions,
): Promise<StorageReport> {
  console.error(
    `\n[${storage}] opening ${options.reuse ? 'the kept schema' : 'a fresh database'} and running the migrations…`,
  );
  const db: BenchDatabase & { dropSchema?: () => Promise<void> } = options.databaseUrl
    ? await openPostgresBenchDatabase(
        options.databaseUrl,
        `lumina_bench_${storage}`,
        corpus.dimension,
        storage,
        options.reuse,
      )
    : await openPgliteBenchDatabase(options.dataDir, corpus.dimension, storage);
  try {
    if (options.reuse) return await measureKept(db, storage, corpus, truth, options);
    await prepareBulkLoad(db, options.bm25Mode);
    const copy = await timed(() =>
      copyCorpus(db, corpus, storage, options.batch, progressReporter(`[${storage}] binary COPY`)),
    );
    const rows = corpus.chunkIds.length;
    console.error(`[${storage}] ${rows} chunks copied in ${(copy.ms / 1000).toFixed(1)} s`);

    let bm25: Timed & { postings: number; terms: number };
    if (options.bm25Mode === 'rebuild') {
      console.error(`[${storage}] rebuilding the BM25 statistics in one pass…`);
      const rebuilt = await timed(() => rebuildBm25Statistics(db));
      bm25 = { ...rebuilt.value, ms: rebuilt.ms, cpuMs: rebuilt.cpuMs };
    } else {
      const [counts] = await db.query<{ postings: string; terms: string }>(BM25_COUNTS_SQL.kept);
      bm25 = { postings: Number(counts.postings), terms: Number(counts.terms), ms: 0, cpuMs: 0 };
    }
    // The GIN index serves the BM25 intersection pass too, so it is built whatever is measured.
    console.error(`[${storage}] building the GIN index…`);
    const gin: Timed = await timed(() => buildGinIndex(db));
    let hnsw: Timed | null = null;
    if (options.dense) {
      console.error(
        `[${storage}] building the HNSW index (m ${options.hnswParameters.m}, ef_construction ${options.hnswParameters.efConstruction})…`,
      );
      hnsw = await timed(() => buildHnswIndex(db, storage, options.hnswParameters));
      console.error(`[${storage}] HNSW built in ${(hnsw.ms / 1000).toFixed(1)} s`);
    }
    const analyze = await timed(() => db.query(VACUUM_ANALYZE_SQL));
    const sizes = await databaseSizes(db);
    const { search, bm25Classes } = await measure(db, storage, corpus, truth, options);
    return {
      storage,
      database: db.description,
      reused: false,
      load: {
        documentsMs: copy.value.documentsMs,
        chunks: {
          ms: copy.ms,
          cpuMs: copy.cpuMs,
          rowsPerSecond: rows / (copy.value.chunksMs / 1000),
          copyBytes: copy.value.bytes,
        },
        bm25: { mode: options.bm25Mode, ...bm25 },
        gin: { ms: gin.ms, cpuMs: gin.cpuMs },
        hnsw: hnsw && { ms: hnsw.ms, cpuMs: hnsw.cpuMs, ...options.hnswParameters },
        analyze: { ms: analyze.ms, cpuMs: analyze.cpuMs },
      },
      sizes,
      search,
      bm25Classes,
      notices: [...new Set(db.notices)],
    };
  } finally {
    if (db.dropSchema && !options.keep) await db.dropSchema();
    await db.close();
  }
}

/**
 * After a load, what autovacuum would do to tables of that size: the statistics, and the visibility map
 * that lets the BM25 postings be read from their key alone (an index-only scan). The PostgreSQL this
 * runs on may have autovacuum off, and the embedded one has none.
 */
const VACUUM_ANALYZE_SQL = 'VACUUM (ANALYZE)';

/** The searches and the BM25 classes over a loaded database. */
async function measure(
  db: BenchDatabase,
  storage: EmbeddingStorage,
  corpus: SyntheticCorpus,
  truth: string[][],
  options: RunOptions,
): Promise<Pick<StorageReport, 'search' | 'bm25Classes'>> {
  const search = !options.dense
    ? null
    : await measureSearches(db, corpus, {
        storage,
        efSearch: options.efSearch,
        recallGoal: GOAL_RECALL,
        warmup: options.warmup,
        exactQueries: options.exactQueries,
        k1: options.k1,
        b: options.b,
        truth,
        onProgress: (stage) => progressReporter(`[${storage}] ${stage}`),
      });
  const bm25Classes = await measureBm25Classes(db, corpus, {
    k1: options.k1,
    b: options.b,
    topK: TOP_K,
    perClass: options.bm25PerClass,
    warmup: Math.min(options.warmup, 3),
    seed: options.seed,
    onProgress: (stage) => progressReporter(`[${storage}] ${stage}`),
  });
  return { search, bm25Classes };
}

/**
 * --reuse: the kept schema must hold this very corpus (its chunk count and its first and last chunk
 * ids); it is vacuumed and analysed (the migrations that just ran may have rebuilt an index) and measured.
 */
async function measureKept(
  db: BenchDatabase,
  storage: EmbeddingStorage,
  corpus: SyntheticCorpus,
  truth: string[][],
  options: RunOptions,
): Promise<StorageReport> {
  const ids = [corpus.chunkIds[0], corpus.chunkIds[corpus.chunkIds.length - 1]];
  const [kept] = await db.query<{ chunks: string; found: string; postings: string; terms: string }>(
    KEPT_CORPUS_SQL,
    [ids],
  );
  if (Number(kept.chunks) !== corpus.chunkIds.length || Number(kept.found) !== ids.length) {
    throw new UsageError(
      `--reuse: the kept schema holds ${kept.chunks} chunks, not this run's ${corpus.chunkIds.length} of seed ${options.seed}`,
    );
  }
  console.error(`[${storage}] reusing the kept schema: VACUUM ANALYZE…`);
  const analyze = await timed(() => db.query(VACUUM_ANALYZE_SQL));
  const sizes = await databaseSizes(db);
  const { search, bm25Classes } = await measure(db, storage, corpus, truth, options);
  const none: Timed = { ms: 0, cpuMs: 0 };
  return {
    storage,
    database: db.description,
    reused: true,
    load: {
      documentsMs: 0,
      chunks: { ...none, rowsPerSecond: 0, copyBytes: 0 },
      bm25: { ...none, mode: options.bm25Mode, postings: Number(kept.postings), terms: Number(kept.terms) },
      gin: none,
      hnsw: null,
      analyze: { ms: analyze.ms, cpuMs: analyze.cpuMs },
    },
    sizes,
    search,
    bm25Classes,
    notices: [...new Set(db.notices)],
  };
}

type Header = {
  chunks: number;
  documents: number;
  dimension: number;
  queries: number;
  warmup: number;
  seed: number;
  shape: SyntheticCorpus['shape'];
  generationSeconds: number;
  cpus: number;
  loadAverage: { start: number; end: number };
  totalSeconds: number;
};

function formatReport(header: Header, reports: StorageReport[]): string {
  const lines: string[] = [];
  lines.push(
    `bench:scale — ${header.chunks.toLocaleString('en')} chunks in ${header.documents.toLocaleString('en')} documents, ` +
      `${header.dimension}-d, ${header.queries} queries one at a time (after ${header.warmup} warm-up), seed ${header.seed}`,
    `corpus: ${header.shape.topics} topics in ${header.shape.superTopics} super-topics, Zipf s=${header.shape.zipfExponent} ` +
      `over ${header.shape.vocabulary.toLocaleString('en')} words, ${header.shape.meanWordsPerChunk} words per chunk, ` +
      `vectors: hierarchical Gaussian mixture + rank-${header.shape.lowRank} component, unit norm`,
    `machine: ${header.cpus} CPUs, load average ${header.loadAverage.start.toFixed(1)} at start, ` +
      `${header.loadAverage.end.toFixed(1)} at end; total ${(header.totalSeconds / 60).toFixed(1)} min`,
  );
  for (const report of reports) {
    const { load, sizes, search } = report;
    lines.push('', `== ${report.storage} — ${report.database}`);
    if (report.reused) {
      lines.push(
        `load    none: the schema a run with --keep left (${load.bm25.postings.toLocaleString('en')} postings, ` +
          `${load.bm25.terms.toLocaleString('en')} terms), after the migrations it lacked; VACUUM ANALYZE ${sec(load.analyze)}`,
      );
    } else {
      lines.push(
        `load    binary COPY ${sizes.rows.toLocaleString('en')} chunks: ${sec(load.chunks)} → ` +
          `${Math.round(load.chunks.rowsPerSecond).toLocaleString('en')} rows/s (${formatBytes(load.chunks.copyBytes)} of COPY data; ` +
          `tsvector and lexical length computed by the database on insert)`,
        `        BM25 statistics (${load.bm25.mode === 'rebuild' ? 'insert trigger off during COPY, rebuilt in one INSERT…SELECT' : 'insert trigger during COPY'}): ` +
          `${load.bm25.mode === 'rebuild' ? sec(load.bm25) : 'included above'} → ${load.bm25.postings.toLocaleString('en')} postings, ` +
          `${load.bm25.terms.toLocaleString('en')} terms`,
        `        GIN (tsv) ${sec(load.gin)}; VACUUM ANALYZE ${sec(load.analyze)}`,
        load.hnsw
          ? `index   HNSW built after the load: ${sec(load.hnsw)} (m ${load.hnsw.m}, ef_construction ${load.hnsw.efConstruction}, ` +
              `maintenance_work_mem ${load.hnsw.maintenanceWorkMem})`
          : `index   HNSW not built (--search bm25)`,
      );
    }
    lines.push(
      `sizes   ${sizes.bytesPerVector.toFixed(0)} bytes per stored vector; HNSW index ${formatBytes(sizes.hnswIndex)} ` +
        `(${(sizes.hnswIndex / sizes.rows).toFixed(0)} B per chunk); chunks table total ${formatBytes(sizes.chunksTotal)} ` +
        `(heap ${formatBytes(sizes.chunksHeap)}, TOAST ${formatBytes(sizes.chunksToast)}, GIN ${formatBytes(sizes.ginIndex)}); ` +
        `BM25 tables ${formatBytes(sizes.bm25)}; database ${formatBytes(sizes.database)}`,
    );
    if (search) {
      lines.push(
        `search  top-${TOP_K}, through SqlChunkSearch (TypeORM over the Postgres protocol); "sql" = the same query on the direct handle`,
        `        ${'mode'.padEnd(44)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'sql p50'.padStart(9)}${'recall@10'.padStart(11)}`,
        row(`exact scan (${search.exact.queries} queries)`, search.exact.latency, null, search.exact.recall),
        ...search.hnsw.map((h) =>
          row(
            `hnsw ef_search=${h.efSearch}${h.usesIndex ? '' : ' (planner: seq scan)'}`,
            h.latency,
            h.sqlLatency,
            h.recall,
          ),
        ),
        row('bm25 (pruned)', search.bm25.latency, null, null),
        row(
          `hybrid (bm25 + hnsw ef=${Math.max(search.hybrid.efSearch, 100)}, RRF)`,
          search.hybrid.latency,
          null,
          null,
        ),
      );
      const met = search.hnsw.find(
        (h) => h.usesIndex && h.recall >= GOAL_RECALL && h.latency.p50 <= GOAL_P50_MS,
      );
      lines.push(
        met
          ? `goal    p50 ≤ ${GOAL_P50_MS} ms with recall@10 ≥ ${GOAL_RECALL}: met at ef_search=${met.efSearch} ` +
              `(p50 ${met.latency.p50.toFixed(1)} ms, recall ${met.recall.toFixed(3)})`
          : `goal    p50 ≤ ${GOAL_P50_MS} ms with recall@10 ≥ ${GOAL_RECALL}: NOT met at any measured ef_search`,
      );
    }
    lines.push(...bm25ClassLines(report.bm25Classes));
    if (report.notices.length) lines.push(`notices ${report.notices.join(' | ')}`);
  }
  if (reports.length === 2 && reports[0].load.hnsw && reports[1].load.hnsw) {
    const [a, b] = reports;
    lines.push(
      '',
      `${b.storage} vs ${a.storage}: bytes per vector ${b.sizes.bytesPerVector.toFixed(0)} vs ${a.sizes.bytesPerVector.toFixed(0)}, ` +
        `HNSW ${formatBytes(b.sizes.hnswIndex)} vs ${formatBytes(a.sizes.hnswIndex)} ` +
        `(×${(b.sizes.hnswIndex / a.sizes.hnswIndex).toFixed(2)}), chunks table ${formatBytes(b.sizes.chunksTotal)} vs ` +
        `${formatBytes(a.sizes.chunksTotal)}, HNSW build ${sec(b.load.hnsw!)} vs ${sec(a.load.hnsw!)}`,
    );
  }
  return lines.join('\n');
}

function bm25ClassLines({ bands, classes }: StorageReport['bm25Classes']): string[] {
  const range = ([min, max]: [number, number]) => `${min.toLocaleString('en')}–${max.toLocaleString('en')}`;
  const count = (value: number) => Math.round(value).toLocaleString('en').padStart(10);
  return [
    `bm25    top-${TOP_K} by query class, exhaustive statement (exh) and pruned top-k (MaxScore or the intersection pass) on the same queries, ms; ` +
      `df bands: rare ${range(bands.rare)}, mid ${range(bands.mid)}, common ${range(bands.common)} of ${bands.chunks.toLocaleString('en')} chunks`,
    `        ${'class'.padEnd(30)}${'terms'.padStart(6)}${'exh p50'.padStart(9)}${'p95'.padStart(8)}${'p99'.padStart(8)}` +
      `${'pruned p50'.padStart(11)}${'p95'.padStart(8)}${'p99'.padStart(8)}${'×p50'.padStart(7)}` +
      `${'postings'.padStart(10)}${'read'.padStart(10)}${'lookups'.padStart(10)}${'pruned'.padStart(8)}` +
      `${'inter.'.padStart(8)}${'chunks'.padStart(8)}${'diff'.padStart(6)}`,
    ...classes.map(
      (c) =>
        `        ${`${c.name} (${c.queries})`.padEnd(30)}${c.meanTerms.toFixed(1).padStart(6)}` +
        `${c.exhaustive.p50.toFixed(1).padStart(9)}${c.exhaustive.p95.toFixed(1).padStart(8)}${c.exhaustive.p99.toFixed(1).padStart(8)}` +
        `${c.pruned.p50.toFixed(1).padStart(11)}${c.pruned.p95.toFixed(1).padStart(8)}${c.pruned.p99.toFixed(1).padStart(8)}` +
        `${(c.exhaustive.p50 / c.pruned.p50).toFixed(1).padStart(7)}` +
        `${count(c.exhaustivePostings)}${count(c.prunedPostings)}${count(c.prunedLookups)}` +
        `${`${Math.round(c.prunedShare * 100)}%`.padStart(8)}${`${Math.round(c.intersectionShare * 100)}%`.padStart(8)}` +
        `${Math.round(c.intersectionChunks).toLocaleString('en').padStart(8)}${String(c.mismatches).padStart(6)}`,
    ),
    `        postings = the query terms' postings (what the exhaustive statement reads); read = postings the pruned ` +
      `search read as whole lists; lookups = postings it looked up by key; pruned = share of queries that ` +
      `took MaxScore's path; inter. = share answered by the intersection pass (chunks = the chunks holding every term it found, ` +
      `mean over the queries it ran for); diff = pruned top-${TOP_K} different from the exhaustive one`,
  ];
}

function row(
  label: string,
  latency: LatencySummary,
  sql: LatencySummary | null,
  recall: number | null,
): string {
  return (
    `        ${label.padEnd(44)}${ms(latency.p50)}${ms(latency.p95)}${ms(latency.p99)}` +
    `${sql ? ms(sql.p50) : '-'.padStart(9)}${recall === null ? '-'.padStart(11) : recall.toFixed(3).padStart(11)}`
  );
}

function ms(value: number): string {
  return value.toFixed(1).padStart(9);
}

function sec(step: Pick<Timed, 'ms' | 'cpuMs'>): string {
  return `${(step.ms / 1000).toFixed(1)} s (cpu ${(step.cpuMs / 1000).toFixed(1)} s)`;
}

function intArg(value: string, flag: string, min: number, max: number): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw new UsageError(`${flag} must be an integer in ${min}..${max}, got "${value}"`);
  }
  return parsed;
}

function storageArg(value: string): EmbeddingStorage[] {
  if (value === 'both') return ['vector', 'halfvec'];
  if (value === 'vector' || value === 'halfvec') return [value];
  throw new UsageError(`--storage must be vector, halfvec or both, got "${value}"`);
}

function memoryArg(value: string): string {
  if (!/^\d+(kB|MB|GB)$/.test(value))
    throw new UsageError(`--maintenance-work-mem must look like 512MB, got "${value}"`);
  return value;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
