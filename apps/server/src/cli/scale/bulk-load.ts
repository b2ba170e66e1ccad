import type { EmbeddingStorage } from '../../database/pgvector';
import { CHUNK_EMBEDDING_INDEX, cosineOpsFor } from '../../database/pgvector';
import type { BenchDatabase } from './bench-database';
import { BinaryCopyWriter } from './binary-copy-writer';
import type { SyntheticCorpus } from './synthetic-corpus';
import { indexTextOf, vectorOf } from './synthetic-corpus';

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
  await db.query(`DROP INDEX IF EXISTS ${CHUNK_EMBEDDING_INDEX}`);
  await db.query(`DROP INDEX IF EXISTS chunks_tsv_gin_idx`);
  if (bm25 === 'rebuild') await db.query(`ALTER TABLE chunks DISABLE TRIGGER chunks_bm25_insert`);
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
  await db.copyFrom(
    `COPY documents (id, title, content_hash, external_id, status, chunk_count, byte_size)
     FROM '/dev/blob' WITH (FORMAT binary)`,
    documentsData,
  );
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
    const copied = await db.copyFrom(
      `COPY chunks (id, document_id, ordinal, text, index_text, heading_path, span_start, span_end,
                    embedding, embedding_model)
       FROM '/dev/blob' WITH (FORMAT binary)`,
      data,
    );
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
  await db.query(`ALTER TABLE bm25_postings DROP CONSTRAINT IF EXISTS bm25_postings_chunk_id_fkey`);
  await db.query(`ALTER TABLE bm25_postings DROP CONSTRAINT IF EXISTS bm25_postings_pkey`);
  await db.query(`DROP INDEX IF EXISTS bm25_postings_chunk_idx`);
  await db.query(`TRUNCATE bm25_postings, bm25_term_slots, bm25_corpus_slots`);
  await db.query(`
    INSERT INTO bm25_postings (term, chunk_id, tf, chunk_length)
    SELECT t.lexeme, c.id, coalesce(array_length(t.positions, 1), 1), c.lexical_length
    FROM chunks c CROSS JOIN LATERAL unnest(c.tsv) AS t`);
  await db.query(`
    INSERT INTO bm25_term_slots (term, slot, df) SELECT term, 0, count(*) FROM bm25_postings GROUP BY term`);
  await db.query(`
    INSERT INTO bm25_corpus_slots (slot, chunk_count, total_length)
    SELECT 0, count(*), coalesce(sum(lexical_length), 0) FROM chunks`);
  await db.query(`ALTER TABLE bm25_postings ADD CONSTRAINT bm25_postings_pkey PRIMARY KEY (term, chunk_id)`);
  await db.query(`CREATE INDEX bm25_postings_chunk_idx ON bm25_postings (chunk_id)`);
  await db.query(`
    ALTER TABLE bm25_postings ADD CONSTRAINT bm25_postings_chunk_id_fkey
      FOREIGN KEY (chunk_id) REFERENCES chunks (id) ON DELETE CASCADE`);
  await db.query(`ALTER TABLE chunks ENABLE TRIGGER chunks_bm25_insert`);
  const [counts] = await db.query<{ postings: string; terms: string }>(
    `SELECT (SELECT count(*) FROM bm25_postings) AS postings, (SELECT count(*) FROM bm25_term_slots) AS terms`,
  );
  return { postings: Number(counts.postings), terms: Number(counts.terms) };
}

export async function buildGinIndex(db: BenchDatabase): Promise<void> {
  await db.query(`CREATE INDEX chunks_tsv_gin_idx ON chunks USING gin (tsv)`);
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
  await db.query(`SELECT set_config('maintenance_work_mem', $1, false)`, [parameters.maintenanceWorkMem]);
  await db.query(
    `CREATE INDEX ${CHUNK_EMBEDDING_INDEX} ON chunks USING hnsw (embedding ${cosineOpsFor(storage)})
     WITH (m = ${Math.trunc(parameters.m)}, ef_construction = ${Math.trunc(parameters.efConstruction)})`,
  );
}
