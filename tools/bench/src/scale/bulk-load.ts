import { indexTextOf, vectorOf } from '@lumina/eval';
import type { SyntheticCorpus } from '@lumina/eval';
import type { EmbeddingStorage } from '@lumina/server-core';
import type { BenchDatabase } from './bench-database';
import { BinaryCopyWriter } from './binary-copy-writer';
import {
  BM25_COUNTS_SQL,
  COPY_CHUNKS_SQL,
  COPY_DOCUMENTS_SQL,
  CREATE_GIN_INDEX_SQL,
  createHnswIndexSql,
  PREPARE_BULK_LOAD_SQL,
  REBUILD_BM25_SQL,
  SET_MAINTENANCE_WORK_MEM_SQL,
} from './bulk-load.sql';

export const SYNTHETIC_MODEL = 'synthetic-bench';

/** Wall and CPU time of a step (CPU: this process; the embedded database runs inside it). */
export interface Timed {
  ms: number;
  cpuMs: number;
}

export async function timed<T>(work: () => Promise<T>): Promise<{ value: T } & Timed> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { value, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

/**
 * Before a bulk load: drop the indexes that are cheaper to build once afterwards (HNSW, GIN) and,
 * with `bm25: 'rebuild'`, switch off the statement trigger that keeps the BM25 statistics, which
 * rebuildBm25Statistics then computes in one pass.
 */
export async function prepareBulkLoad(db: BenchDatabase, bm25: 'rebuild' | 'trigger'): Promise<void> {
  for (const sql of PREPARE_BULK_LOAD_SQL.dropIndexes) await db.query(sql);
  if (bm25 === 'rebuild') await db.query(PREPARE_BULK_LOAD_SQL.disableBm25Trigger);
}

/** Binary COPY of the documents, then the chunks in batches; returns the bytes sent. */
export async function copyCorpus(
  db: BenchDatabase,
  corpus: SyntheticCorpus,
  storage: EmbeddingStorage,
  batchRows: number,
  onProgress: (done: number, total: number) => void,
): Promise<{ bytes: number; documentsMs: number; chunksMs: number }> {
  let bytes = 0;
  const documentsStarted = performance.now();
  const documents = new BinaryCopyWriter(corpus.documents.length * 160);
  for (const document of corpus.documents) {
    documents
      .row(7)
      .uuid(document.id)
      .text(document.title)
      .text(`synthetic:${document.id}`)
      .text(`bench-${document.firstChunk}`)
      .text('indexed')
      .int4(document.chunkCount)
      .int8(document.byteSize);
  }
  const documentsData = documents.finish();
  bytes += documentsData.length;
  await db.copyFrom(COPY_DOCUMENTS_SQL, documentsData);
  const documentsMs = performance.now() - documentsStarted;

  const chunksStarted = performance.now();
  const total = corpus.chunkIds.length;
  const vectorBytes = storage === 'halfvec' ? 2 : 4;
  for (let start = 0; start < total; start += batchRows) {
    const end = Math.min(total, start + batchRows);
    const writer = new BinaryCopyWriter((end - start) * (corpus.dimension * vectorBytes + 2600));
    for (let i = start; i < end; i++) {
      const document = corpus.documents[corpus.chunkDocument[i]];
      writer
        .row(10)
        .uuid(corpus.chunkIds[i])
        .uuid(document.id)
        .int4(corpus.chunkOrdinal[i])
        .text(corpus.texts[i])
        .text(indexTextOf(corpus, i))
        .textArray([document.title])
        .int4(corpus.spanStart[i])
        .int4(corpus.spanEnd[i]);
      if (storage === 'halfvec') writer.halfvec(vectorOf(corpus, i));
      else writer.vector(vectorOf(corpus, i));
      writer.text(SYNTHETIC_MODEL);
    }
    const data = writer.finish();
    bytes += data.length;
    const copied = await db.copyFrom(COPY_CHUNKS_SQL, data);
    if (copied !== end - start) throw new Error(`COPY wrote ${copied} rows, expected ${end - start}`);
    onProgress(end, total);
  }
  return { bytes, documentsMs, chunksMs: performance.now() - chunksStarted };
}

/**
 * The BM25 statistics the chunk triggers keep (see the bm25 migration), computed for the whole table in
 * one INSERT … SELECT each — what the insert trigger would have produced row by row — with the
 * postings' keys dropped during the insert and re-created after (one sort instead of 5M B-tree inserts).
 * Re-enables the insert trigger.
 */
export async function rebuildBm25Statistics(db: BenchDatabase): Promise<{ postings: number; terms: number }> {
  for (const sql of REBUILD_BM25_SQL) await db.query(sql);
  const [counts] = await db.query<{ postings: string; terms: string }>(BM25_COUNTS_SQL.rebuilt);
  return { postings: Number(counts.postings), terms: Number(counts.terms) };
}

export async function buildGinIndex(db: BenchDatabase): Promise<void> {
  await db.query(CREATE_GIN_INDEX_SQL);
}

export interface HnswParameters {
  m: number;
  efConstruction: number;
  maintenanceWorkMem: string;
}

/** The HNSW index the migrations define (same name, operator class of the storage), built after the load. */
export async function buildHnswIndex(
  db: BenchDatabase,
  storage: EmbeddingStorage,
  parameters: HnswParameters,
): Promise<void> {
  await db.query(SET_MAINTENANCE_WORK_MEM_SQL, [parameters.maintenanceWorkMem]);
  await db.query(createHnswIndexSql(storage, parameters.m, parameters.efConstruction));
}
