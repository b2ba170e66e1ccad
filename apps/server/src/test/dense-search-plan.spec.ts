import { chunkUuid, documentUuid, generateSyntheticCorpus, recallAt, vectorOf } from '@lumina/eval';
import { CHUNK_EMBEDDING_INDEX, toVectorLiteral } from '../database/pgvector';
import { SqlChunkSearch } from '../modules/rag/repositories/sql-chunk-search';
import { DENSE_TIE_SLACK, denseSearchSql } from '../modules/rag/repositories/sql/dense-search.sql';
import { TEST_BACKEND } from './helpers/test-backend';
import { startTestDatabase } from './helpers/test-database';
import type { TestDatabase } from './helpers/test-database';
import { testEnv } from './helpers/test-env';

const CHUNKS = 4000;
const DUPLICATES = 20;
const QUERIES = 20;
/** The app's defaults: HNSW_EF_SEARCH 100, m 16, ef_construction 64 (the migration's index). */
const EF_SEARCH = 100;

/**
 * The dense query on a few thousand 512-d chunks at the app's settings, with the planner left alone:
 * it must be served by the HNSW index (an ORDER BY distance, id in one query is a full scan plus sort
 * on PostgreSQL), return k rows even when k + the tie slack exceeds ef_search, keep returning rows under a
 * document filter, and break exact ties by chunk id as the exact scan does.
 */
describe(`dense search plan and results on ${TEST_BACKEND}`, () => {
  const corpus = generateSyntheticCorpus({ chunks: CHUNKS, dimension: 512, queries: QUERIES, seed: 11 });
  let db: TestDatabase;
  /** The chunk ids that share one embedding (the vector of chunk 0), sorted. */
  let duplicateIds: string[];

  const explain = async (k: number, ids: string[] | null, efSearch = EF_SEARCH): Promise<string> => {
    const rows: Record<string, string>[] = await db.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT set_config('hnsw.ef_search', $1, true)`, [String(efSearch)]);
      return manager.query(`EXPLAIN ${denseSearchSql('vector')}`, [
        toVectorLiteral(Array.from(corpus.queries[0].vector)),
        k,
        ids,
        null,
      ]);
    });
    return rows.map((row) => Object.values(row)[0]).join('\n');
  };
  const search = (efSearch = EF_SEARCH) => new SqlChunkSearch(db.dataSource, { k1: 0.9, b: 0.4, efSearch });

  // Building the index over 4000 vectors takes PGlite (WebAssembly) a while on a busy machine.
  beforeAll(async () => {
    db = await startTestDatabase(testEnv());
    await db.dataSource.query(`DROP INDEX ${CHUNK_EMBEDDING_INDEX}`);
    const documents = corpus.documents;
    await db.dataSource.query(
      `INSERT INTO documents (id, title, content_hash, status)
       SELECT id, title, 'hash-' || id, 'indexed' FROM unnest($1::uuid[], $2::text[]) AS d(id, title)`,
      [documents.map((d) => d.id), documents.map((d) => d.title)],
    );
    // Chunks 1..DUPLICATES carry chunk 0's vector: exact ties at the top of its ranking.
    const vectorFor = (i: number) => vectorOf(corpus, i <= DUPLICATES ? 0 : i);
    for (let start = 0; start < CHUNKS; start += 500) {
      const batch = Array.from({ length: Math.min(500, CHUNKS - start) }, (_, j) => start + j);
      await db.dataSource.query(
        `INSERT INTO chunks (id, document_id, ordinal, text, index_text, span_start, span_end, embedding, embedding_model)
         SELECT id, document_id, ordinal, 'chunk', 'chunk', 0, 5, embedding::vector, 'synthetic'
         FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::text[]) AS c(id, document_id, ordinal, embedding)`,
        [
          batch.map((i) => chunkUuid(i)),
          batch.map((i) => documentUuid(corpus.chunkDocument[i])),
          batch.map((i) => corpus.chunkOrdinal[i]),
          batch.map((i) => toVectorLiteral(Array.from(vectorFor(i)))),
        ],
      );
    }
    await db.dataSource.query(
      `CREATE INDEX ${CHUNK_EMBEDDING_INDEX} ON chunks USING hnsw (embedding vector_cosine_ops)`,
    );
    await db.dataSource.query('ANALYZE');
    duplicateIds = Array.from({ length: DUPLICATES + 1 }, (_, i) => chunkUuid(i)).sort();
  }, 300_000);

  afterAll(async () => {
    await db?.close();
  });

  it.each([10, 30, 100])('plans k = %i as an HNSW index scan, ties sorted outside it', async (k) => {
    const plan = await explain(k, null);
    expect(plan).toContain(`Index Scan using ${CHUNK_EMBEDDING_INDEX}`);
    expect(plan).not.toMatch(/Seq Scan on chunks/);
  });

  it('plans a broad document filter as an HNSW index scan, a narrow one by document', async () => {
    // Half the documents: walking the graph and dropping the other half (iterative scan) is cheaper.
    const half = corpus.documents.slice(0, corpus.documents.length / 2).map((d) => d.id);
    expect(await explain(10, half)).toContain(`Index Scan using ${CHUNK_EMBEDDING_INDEX}`);
    // Three documents: their few chunks, fetched by document and sorted, are cheaper than the graph.
    const few = corpus.documents.slice(0, 3).map((d) => d.id);
    expect(await explain(10, few)).not.toContain(CHUNK_EMBEDDING_INDEX);
  });

  it('the single ORDER BY distance, id (the exact query) is not served by the index', async () => {
    // What the approximate query replaced; kept for exact scans, where no index is wanted anyway.
    const rows: Record<string, string>[] = await db.dataSource.query(
      `EXPLAIN ${denseSearchSql('vector', { exact: true })}`,
      [toVectorLiteral(Array.from(corpus.queries[0].vector)), 10, null, null],
    );
    const plan = rows.map((row) => Object.values(row)[0]).join('\n');
    if (TEST_BACKEND === 'postgres') expect(plan).toMatch(/Seq Scan on chunks/);
    expect(plan).toMatch(/Sort/);
  });

  it('returns k rows when k + the tie slack exceeds ef_search (iterative scan)', async () => {
    const chunks = new SqlChunkSearch(db.dataSource, { k1: 0.9, b: 0.4, efSearch: 40 });
    const k = 100;
    expect(k + DENSE_TIE_SLACK).toBeGreaterThan(100);
    const hits = await chunks.dense(Array.from(corpus.queries[1].vector), k);
    expect(hits).toHaveLength(k);
    expect(new Set(hits.map((hit) => hit.chunkId)).size).toBe(k);
  });

  it('keeps returning rows under a document filter through the index until k are found', async () => {
    // Half the documents at ef_search 20: one pass finds about 10 of their chunks, fewer than k; the
    // iterative scan goes on until it has k + the tie slack.
    const half = corpus.documents.slice(0, corpus.documents.length / 2).map((d) => d.id);
    const k = 15;
    expect(await explain(k, half, 20)).toContain(`Index Scan using ${CHUNK_EMBEDDING_INDEX}`);
    const vector = Array.from(corpus.queries[2].vector);
    const hits = await search(20).dense(vector, k, { documentIds: half });
    expect(hits).toHaveLength(k);
    const [{ outside }] = await db.dataSource.query(
      `SELECT count(*)::int AS outside FROM chunks WHERE id = ANY($1::uuid[]) AND NOT document_id = ANY($2::uuid[])`,
      [hits.map((h) => h.chunkId), half],
    );
    expect(outside).toBe(0);
    const exact = await search().dense(vector, k, { documentIds: half, exact: true });
    expect(
      recallAt(
        hits.map((h) => h.chunkId),
        exact.map((h) => h.chunkId),
      ),
    ).toBeGreaterThanOrEqual(0.9);
  });

  it('breaks exact ties by chunk id, as the exact scan does', async () => {
    const query = Array.from(vectorOf(corpus, 0));
    const approximate = await search().dense(query, 10);
    const exact = await search().dense(query, 10, { exact: true });
    expect(approximate.map((hit) => hit.chunkId)).toEqual(duplicateIds.slice(0, 10));
    expect(exact.map((hit) => hit.chunkId)).toEqual(duplicateIds.slice(0, 10));
  });

  it('ranks like the exact scan: recall@10 ≥ 0.95 at the default ef_search, scores descending', async () => {
    let recall = 0;
    for (let q = 0; q < QUERIES; q++) {
      const vector = Array.from(corpus.queries[q].vector);
      const hits = await search().dense(vector, 10);
      const exact = await search().dense(vector, 10, { exact: true });
      expect(hits).toHaveLength(10);
      recall += recallAt(
        hits.map((h) => h.chunkId),
        exact.map((h) => h.chunkId),
      );
      for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).toBeGreaterThanOrEqual(hits[i].score);
    }
    expect(recall / QUERIES).toBeGreaterThanOrEqual(0.95);
  });
});
