import type {
  ChunkFilter,
  ChunkRecord,
  ChunkSearch,
  RerankEvidence,
  RerankPassageEvidence,
  ScoredChunk,
  TermEvidence,
} from '@lumina/rag';
import { analyseQuery, SIMPLE_CONFIG } from '@lumina/rag';
import type { DataSource } from 'typeorm';
import { Bm25PrunedSearch, DEFAULT_BM25_PRUNING } from './bm25-pruned-search';
import type { Bm25PruningOptions, Bm25Query, Bm25SearchStats } from './bm25-pruned-search';
import { BM25_MAX_QUERY_TERMS } from './sql/bm25-search.sql';
import { toVectorLiteral } from '../../../database/pgvector';
import type { EmbeddingStorage } from '../../../database/pgvector';
import { denseSearchSql } from './sql/dense-search.sql';
import { RERANK_PASSAGES_SQL, RERANK_QUERY_TERMS_SQL } from './sql/rerank-evidence.sql';
import {
  ALL_COLLECTION_IDS_SQL,
  CORPUS_STATS_SQL,
  PASSAGE_TERMS_SQL,
  QUERY_TERM_STATS_SQL,
} from './sql/term-evidence.sql';
import { corpusLanguages, corpusTextConfigs } from './text-search-configs';

export interface SqlChunkSearchOptions {
  k1: number;
  b: number;
  efSearch: number;
  /** The chunks' vector type (EMBEDDING_STORAGE); query vectors are cast to it. Default `vector`. */
  storage?: EmbeddingStorage;
  /** Longer queries are scored on this many of their strongest terms. Default BM25_MAX_QUERY_TERMS. */
  maxQueryTerms?: number;
  /**
   * Dense search in collections holding fewer chunks than this scans their vectors exactly (through
   * the chunks' collection index) instead of filtering the installation's HNSW graph, which may run out
   * of candidates before it finds k of a small collection's. Default DENSE_EXACT_BELOW.
   */
  denseExactBelow?: number;
  /**
   * BM25 top-k with MaxScore pruning (exactly the exhaustive ranking, reading less; see
   * bm25-pruned-search.ts), or false for the exhaustive statement. Default DEFAULT_BM25_PRUNING.
   */
  bm25Pruning?: Bm25PruningOptions | false;
}

/** See SqlChunkSearchOptions.denseExactBelow. */
export const DENSE_EXACT_BELOW = 20_000;

/** The ChunkSearch port over PostgreSQL/PGlite: BM25 and pgvector in SQL, every value a parameter. */
export class SqlChunkSearch implements ChunkSearch {
  private readonly storage: EmbeddingStorage;
  private readonly denseSql: string;
  private readonly exactDenseSql: string;
  private readonly collectionDenseSql: string;
  private readonly bm25: Bm25PrunedSearch;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: SqlChunkSearchOptions,
  ) {
    this.bm25 = new Bm25PrunedSearch(
      dataSource,
      { k1: options.k1, b: options.b, maxQueryTerms: options.maxQueryTerms ?? BM25_MAX_QUERY_TERMS },
      options.bm25Pruning || DEFAULT_BM25_PRUNING,
    );
    this.storage = options.storage ?? 'vector';
    this.denseSql = denseSearchSql(this.storage);
    this.exactDenseSql = denseSearchSql(this.storage, { exact: true });
    this.collectionDenseSql = denseSearchSql(this.storage, { collectionScan: true });
  }

  async lexical(query: string, k: number, filter: ChunkFilter = {}): Promise<ScoredChunk[]> {
    if (this.options.bm25Pruning === false) return this.lexicalExhaustive(query, k, filter);
    return (await this.lexicalWithStats(query, k, filter)).hits;
  }

  /** The BM25 top k by the exhaustive statement (every posting of every query term): the reference. */
  async lexicalExhaustive(query: string, k: number, filter: ChunkFilter = {}): Promise<ScoredChunk[]> {
    return this.bm25.exhaustive(await this.bm25Query(query, k, filter));
  }

  /** The pruned BM25 top k (equal to lexicalExhaustive) with what it read. */
  async lexicalWithStats(
    query: string,
    k: number,
    filter: ChunkFilter = {},
  ): Promise<{ hits: ScoredChunk[]; stats: Bm25SearchStats }> {
    return this.bm25.search(await this.bm25Query(query, k, filter));
  }

  private async bm25Query(query: string, k: number, filter: ChunkFilter): Promise<Bm25Query> {
    const analyses = analyseQuery(query, await corpusTextConfigs(this.dataSource), SIMPLE_CONFIG);
    return {
      texts: analyses.map((analysis) => analysis.text),
      configs: analyses.map((analysis) => analysis.config),
      collections: await this.statisticsScope(filter),
      documentIds: documentIds(filter),
      k,
    };
  }

  async dense(
    vector: number[],
    k: number,
    filter: ChunkFilter & { exact?: boolean } = {},
  ): Promise<ScoredChunk[]> {
    const ids = documentIds(filter);
    const collections = filter.collectionIds ?? null;
    if (!filter.exact && collections !== null && (await this.smallCollections(collections))) {
      const rows: { chunkId: string; score: number }[] = await this.dataSource.query(
        this.collectionDenseSql,
        [toVectorLiteral(vector), k, ids, collections],
      );
      return rows.map((row) => ({ chunkId: row.chunkId, score: Number(row.score) }));
    }
    const efSearch = Math.max(this.options.efSearch, k);
    // SET LOCAL only lasts for this transaction; the query runs on the same connection.
    const rows: { chunkId: string; score: number }[] = await this.dataSource.transaction(async (manager) => {
      if (filter.exact) {
        await manager.query(`SET LOCAL enable_indexscan = off`);
        return manager.query(this.exactDenseSql, [toVectorLiteral(vector), k, ids, collections]);
      }
      // The index scan is asked for k + DENSE_TIE_SLACK rows (more than ef_search when k is close to it)
      // and a document filter drops rows after the scan: iterative scans go on until the limit is met.
      // Without a filter the scan keeps strict distance order; with one, relaxed_order is much cheaper.
      // Both settings in one round trip (set_config(…, true) is SET LOCAL).
      await manager.query(
        `SELECT set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', $2, true)`,
        [String(efSearch), ids || collections ? 'relaxed_order' : 'strict_order'],
      );
      return manager.query(this.denseSql, [toVectorLiteral(vector), k, ids, collections]);
    });
    // relaxed_order may return rows slightly out of order: restore the exact order of the scores.
    return rows
      .map((row) => ({ chunkId: row.chunkId, score: Number(row.score) }))
      .sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : 1));
  }

  /** The searched collections' document languages (the language stage asks for a foreign-looking question). */
  corpusLanguages(filter: ChunkFilter = {}): Promise<string[]> {
    return corpusLanguages(this.dataSource, filter.collectionIds ?? null);
  }

  async fetch(chunkIds: string[]): Promise<ChunkRecord[]> {
    if (chunkIds.length === 0) return [];
    const rows: (ChunkRecord & { pageFirst: number | null; pageLast: number | null })[] =
      await this.dataSource.query(
        `SELECT c.id AS "chunkId", c.document_id AS "documentId", d.title AS "documentTitle",
                d.external_id AS "externalId", c.ordinal, c.text, c.heading_path AS "headingPath", c.anchor,
                c.span_start AS "spanStart", c.span_end AS "spanEnd",
                c.page_start AS "pageFirst", c.page_end AS "pageLast"
         FROM chunks c JOIN documents d ON d.id = c.document_id
         WHERE c.id = ANY($1::uuid[])`,
        [chunkIds],
      );
    const byId = new Map(
      rows.map(({ pageFirst, pageLast, ...row }): [string, ChunkRecord] => [
        row.chunkId,
        pageFirst === null ? row : { ...row, pages: { first: pageFirst, last: pageLast ?? pageFirst } },
      ]),
    );
    return chunkIds.flatMap((id) => byId.get(id) ?? []);
  }

  async similarity(chunkIds: string[], vector: number[]): Promise<Map<string, number>> {
    if (chunkIds.length === 0) return new Map();
    const rows: { chunkId: string; similarity: number }[] = await this.dataSource.query(
      `SELECT id AS "chunkId", 1 - (embedding <=> $2::${this.storage}) AS similarity
       FROM chunks WHERE id = ANY($1::uuid[]) AND embedding IS NOT NULL`,
      [chunkIds, toVectorLiteral(vector)],
    );
    return new Map(rows.map((row) => [row.chunkId, Number(row.similarity)]));
  }

  /** Whether `collections` hold fewer chunks than the exact-scan cut, read from the BM25 statistics. */
  private async smallCollections(collections: readonly string[]): Promise<boolean> {
    const [{ chunks }]: { chunks: number }[] = await this.dataSource.query(CORPUS_STATS_SQL, [collections]);
    return Number(chunks) < (this.options.denseExactBelow ?? DENSE_EXACT_BELOW);
  }

  /**
   * The collections whose BM25 statistics and postings a read uses: the filter's, or every collection
   * (the statements read them through keys that start with the collection, so they always name them).
   */
  private async statisticsScope(filter: ChunkFilter): Promise<readonly string[]> {
    if (filter.collectionIds) return filter.collectionIds;
    const rows: { id: string }[] = await this.dataSource.query(ALL_COLLECTION_IDS_SQL);
    return rows.map((row) => row.id);
  }

  async termEvidence(query: string, chunkIds: string[], filter: ChunkFilter = {}): Promise<TermEvidence> {
    // The same analyses as lexical(): once per text-search configuration the corpus uses.
    const analyses = analyseQuery(query, await corpusTextConfigs(this.dataSource), SIMPLE_CONFIG);
    const scope = await this.statisticsScope(filter);
    const [terms, corpus] = await Promise.all([
      this.dataSource.query(QUERY_TERM_STATS_SQL, [
        analyses.map((analysis) => analysis.text),
        analyses.map((analysis) => analysis.config),
        scope,
      ]) as Promise<{ term: string; qtf: number; df: number }[]>,
      this.dataSource.query(CORPUS_STATS_SQL, [scope]) as Promise<{ chunks: number; avgLength: number }[]>,
    ]);
    const rows: { chunkId: string; length: number; term: string | null; tf: number | null }[] =
      chunkIds.length === 0
        ? []
        : await this.dataSource.query(PASSAGE_TERMS_SQL, [terms.map((t) => t.term), chunkIds]);
    const passages = new Map<string, { chunkId: string; length: number; tf: Record<string, number> }>();
    for (const row of rows) {
      const passage = passages.get(row.chunkId) ?? {
        chunkId: row.chunkId,
        length: Number(row.length),
        tf: {},
      };
      if (row.term) passage.tf[row.term] = Number(row.tf);
      passages.set(row.chunkId, passage);
    }
    return {
      corpus: { chunks: Number(corpus[0]?.chunks ?? 0), avgLength: Number(corpus[0]?.avgLength ?? 1) },
      bm25: { k1: this.options.k1, b: this.options.b },
      terms: terms.map((t) => ({ term: t.term, qtf: Number(t.qtf), df: Number(t.df) })),
      passages: chunkIds.flatMap((id) => passages.get(id) ?? []),
    };
  }

  async rerankEvidence(query: string, chunkIds: string[], filter: ChunkFilter = {}): Promise<RerankEvidence> {
    const analyses = analyseQuery(query, await corpusTextConfigs(this.dataSource), SIMPLE_CONFIG);
    const scope = await this.statisticsScope(filter);
    const [terms, corpus] = await Promise.all([
      this.dataSource.query(RERANK_QUERY_TERMS_SQL, [
        analyses.map((analysis) => analysis.text),
        analyses.map((analysis) => analysis.config),
        scope,
      ]) as Promise<{ term: string; qtf: number; df: number; position: number }[]>,
      this.dataSource.query(CORPUS_STATS_SQL, [scope]) as Promise<{ chunks: number; avgLength: number }[]>,
    ]);
    const rows: (Omit<RerankPassageEvidence, 'positions'> & { positions: Record<string, number[]> })[] =
      chunkIds.length === 0
        ? []
        : await this.dataSource.query(RERANK_PASSAGES_SQL, [terms.map((t) => t.term), chunkIds]);
    const byId = new Map(
      rows.map((row): [string, RerankPassageEvidence] => [
        row.chunkId,
        {
          chunkId: row.chunkId,
          length: Number(row.length),
          positions: jsonObject(row.positions) as Record<string, number[]>,
          titleTf: jsonObject(row.titleTf) as Record<string, number>,
          titleLength: Number(row.titleLength),
          headingTf: jsonObject(row.headingTf) as Record<string, number>,
          headingLength: Number(row.headingLength),
        },
      ]),
    );
    return {
      corpus: { chunks: Number(corpus[0]?.chunks ?? 0), avgLength: Number(corpus[0]?.avgLength ?? 1) },
      bm25: { k1: this.options.k1, b: this.options.b },
      terms: terms.map((t) => ({
        term: t.term,
        qtf: Number(t.qtf),
        df: Number(t.df),
        position: Number(t.position),
      })),
      // One entry per id asked: a chunk deleted since the search holds nothing.
      passages: chunkIds.map(
        (id) =>
          byId.get(id) ?? {
            chunkId: id,
            length: 0,
            positions: {},
            titleTf: {},
            titleLength: 0,
            headingTf: {},
            headingLength: 0,
          },
      ),
    };
  }
}

/** A json column as an object (drivers hand json back parsed, or as text). */
function jsonObject(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') return JSON.parse(value) as Record<string, unknown>;
  return (value ?? {}) as Record<string, unknown>;
}

function documentIds(filter: ChunkFilter): string[] | null {
  return filter.documentIds && filter.documentIds.length > 0 ? filter.documentIds : null;
}
