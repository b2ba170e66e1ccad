import { generateSyntheticCorpus, vectorOf } from '@lumina/eval';
import type { BenchDatabase } from './bench-database';
import { buildHnswIndex, copyCorpus, prepareBulkLoad, rebuildBm25Statistics } from './bulk-load';
import { fromFloat16Bits, toFloat16Bits } from './float16';
import { openTestBenchDatabase, TEST_BACKEND } from './test-bench-database';

const CHUNKS = 300;

/** The bench's bulk path (binary COPY, BM25 rebuilt in one pass) against the app's own (the triggers). */
describe(`bench:scale bulk load on ${TEST_BACKEND}: binary COPY of vector and halfvec rows, BM25 rebuild`, () => {
  const corpus = generateSyntheticCorpus({ chunks: CHUNKS, dimension: 512, queries: 1, seed: 5 });
  let viaTrigger: BenchDatabase;
  let viaRebuild: BenchDatabase;

  const bm25Snapshot = async (db: BenchDatabase) => ({
    postings: await db.query(
      `SELECT term, chunk_id::text, tf, chunk_length FROM bm25_postings ORDER BY term, chunk_id`,
    ),
    terms: await db.query(`SELECT term, df FROM bm25_terms ORDER BY term`),
    corpus: await db.query(`SELECT chunk_count::int, total_length::int FROM bm25_corpus`),
  });

  beforeAll(async () => {
    viaTrigger = await openTestBenchDatabase(512, 'vector');
    await prepareBulkLoad(viaTrigger, 'trigger');
    await copyCorpus(viaTrigger, corpus, 'vector', 128, () => {});

    viaRebuild = await openTestBenchDatabase(512, 'halfvec');
    await prepareBulkLoad(viaRebuild, 'rebuild');
    await copyCorpus(viaRebuild, corpus, 'halfvec', 128, () => {});
  });

  afterAll(async () => {
    await viaTrigger?.close();
    await viaRebuild?.close();
  });

  it('COPYs every chunk with its float32 vector exactly', async () => {
    const rows = await viaTrigger.query<{
      id: string;
      embedding: string;
      ordinal: number;
      heading_path: string[];
    }>(`SELECT id::text, embedding::text, ordinal, heading_path FROM chunks ORDER BY id`);
    expect(rows).toHaveLength(CHUNKS);
    rows.forEach((row, i) => {
      expect(row.id).toBe(corpus.chunkIds[i]);
      expect(row.ordinal).toBe(corpus.chunkOrdinal[i]);
      expect(row.heading_path).toEqual([corpus.documents[corpus.chunkDocument[i]].title]);
      // The text form is the shortest that reads back as the same float4.
      expect(JSON.parse(row.embedding).map(Math.fround)).toEqual(Array.from(vectorOf(corpus, i)));
    });
  });

  it('COPYs halfvec components rounded exactly as pgvector rounds a vector to halfvec', async () => {
    const rows = await viaRebuild.query<{ copied: string; converted: string }>(
      `SELECT embedding::text AS copied, ($1::vector)::halfvec::text AS converted FROM chunks WHERE id = $2`,
      [`[${Array.from(vectorOf(corpus, 7)).join(',')}]`, corpus.chunkIds[7]],
    );
    expect(rows[0].copied).toBe(rows[0].converted);
    expect(JSON.parse(rows[0].copied).map(Math.fround)).toEqual(
      Array.from(vectorOf(corpus, 7), (v) => fromFloat16Bits(toFloat16Bits(v))),
    );
  });

  it('rebuilds exactly the BM25 statistics the insert trigger keeps, and switches the trigger back on', async () => {
    await rebuildBm25Statistics(viaRebuild);
    const expected = await bm25Snapshot(viaTrigger);
    expect(expected.postings.length).toBeGreaterThan(CHUNKS * 20);
    expect(await bm25Snapshot(viaRebuild)).toEqual(expected);

    // The postings' key and index come back as the migrations made them (the key carries tf and length).
    const postingsIndexes = (db: BenchDatabase) =>
      db.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'bm25_postings'
         ORDER BY indexname`,
      );
    expect(await postingsIndexes(viaRebuild)).toEqual(await postingsIndexes(viaTrigger));
    expect((await postingsIndexes(viaRebuild)).map((index) => index.indexdef).join('\n')).toMatch(
      /bm25_postings_pkey .*\(collection_id, term, chunk_id\) INCLUDE \(tf, chunk_length\)/,
    );

    const before = await bm25Snapshot(viaRebuild);
    await viaRebuild.query(
      `INSERT INTO chunks (document_id, ordinal, text, index_text, span_start, span_end)
       SELECT document_id, 999, 'zyxwvut extra', 'zyxwvut extra', 0, 13 FROM chunks LIMIT 1`,
    );
    const after = await bm25Snapshot(viaRebuild);
    expect(after.corpus[0]).toEqual({
      chunk_count: CHUNKS + 1,
      total_length: (before.corpus[0] as { total_length: number }).total_length + 2,
    });
  });

  it('builds the HNSW index after the load with the operator class of the storage', async () => {
    await buildHnswIndex(viaRebuild, 'halfvec', { m: 8, efConstruction: 32, maintenanceWorkMem: '64MB' });
    const [index] = await viaRebuild.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE indexname = 'chunks_embedding_hnsw_idx'`,
    );
    expect(index.indexdef).toMatch(
      /USING hnsw \(embedding halfvec_cosine_ops\) WITH \(m='8', ef_construction='32'\)/,
    );
  });
});
