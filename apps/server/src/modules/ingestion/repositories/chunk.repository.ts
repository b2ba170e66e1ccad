import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { toVectorLiteral } from '../../../database/pgvector';
import { corpusLanguageCounts, textSearchConfigs } from '../../rag/repositories/text-search-configs';
import type { AnalysedChunk } from '../chunk-analysis';
import { CHUNK_POSITION_SQL } from './chunk-position.sql';
import { CHUNK_VIEW_COLUMNS, FIND_PASSAGE_SQL, PASSAGE_NEIGHBOURS_SQL } from './chunk-passage.sql';
import {
  INSERT_CHUNKS_SQL,
  MARK_INDEXED_SQL,
  PENDING_EMBEDDING,
  PENDING_EMBEDDINGS_SQL,
  STORE_EMBEDDINGS_SQL,
} from './chunks.sql';

/** A chunk as the document's chunk list shows it. */
export interface ChunkRow {
  id: string;
  ordinal: number;
  text: string;
  heading_path: string[];
  anchor: string | null;
  span_start: number;
  span_end: number;
  embedding_model: string | null;
  has_embedding: boolean;
}

/** A chunk with the document it belongs to (GET /chunks/:id). */
export interface PassageRow extends ChunkRow {
  document_id: string;
  document_title: string;
  collection_id: string;
}

/** A document whose chunks are replaced, with the language and text-search configuration they get. */
export interface IndexedDocument {
  documentId: string;
  language: string | null;
  textConfig: string;
}

/** Chunks written per statement. */
const INSERT_BATCH = 500;

/** The chunks table: a document's chunks, their replacement when indexed, and their vectors. */
@Injectable()
export class ChunkRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  /** The text-search configurations this database has (read once per data source). */
  textSearchConfigs(): Promise<ReadonlySet<string>> {
    return textSearchConfigs(this.manager.connection);
  }

  /** How many documents hold each language: the evidence a new document's language is weighed against. */
  languageCounts(): Promise<Record<string, number>> {
    return corpusLanguageCounts(this.manager.connection);
  }

  /** The document's chunks in reading order, `limit` from `offset`. */
  page(documentId: string, offset: number, limit: number): Promise<ChunkRow[]> {
    return this.manager.query(
      `SELECT ${CHUNK_VIEW_COLUMNS}
       FROM chunks c WHERE c.document_id = $1 ORDER BY c.ordinal LIMIT $2 OFFSET $3`,
      [documentId, limit, offset],
    );
  }

  /** The chunk with its document's id, title and collection; null when no chunk has the id. */
  async passage(chunkId: string): Promise<PassageRow | null> {
    const rows: PassageRow[] = await this.manager.query(FIND_PASSAGE_SQL, [chunkId]);
    return rows[0] ?? null;
  }

  /** Up to `count` chunks of the document before and after the one at `ordinal`, each in reading order. */
  async neighbours(
    documentId: string,
    ordinal: number,
    count: number,
  ): Promise<{ before: ChunkRow[]; after: ChunkRow[] }> {
    if (count < 1) return { before: [], after: [] };
    const rows: (ChunkRow & { side: 'before' | 'after' })[] = await this.manager.query(
      PASSAGE_NEIGHBOURS_SQL,
      [documentId, ordinal, count],
    );
    const side = (which: 'before' | 'after') =>
      rows
        .filter((row) => row.side === which)
        .map(({ side: _side, ...row }) => row)
        .sort((a, b) => a.ordinal - b.ordinal);
    return { before: side('before'), after: side('after') };
  }

  async count(documentId: string): Promise<number> {
    const [{ total }]: { total: number }[] = await this.manager.query(
      `SELECT count(*)::int AS total FROM chunks WHERE document_id = $1`,
      [documentId],
    );
    return total;
  }

  /** How many of the document's chunks come before this one; null when it is not one of them. */
  async position(documentId: string, chunkId: string): Promise<number | null> {
    const rows: { before: number }[] = await this.manager.query(CHUNK_POSITION_SQL, [documentId, chunkId]);
    return rows[0]?.before ?? null;
  }

  /** Chunks without a vector of this model. */
  async countPendingEmbeddings(model: string): Promise<number> {
    const [{ pending }]: { pending: number }[] = await this.manager.query(
      `SELECT count(*)::int AS pending FROM chunks WHERE ${PENDING_EMBEDDING}`,
      [model],
    );
    return pending;
  }

  /** The next chunks without a vector of this model, in id order after `after` (null: the first). */
  pendingEmbeddings(
    model: string,
    after: string | null,
    limit: number,
  ): Promise<{ id: string; index_text: string }[]> {
    return this.manager.query(PENDING_EMBEDDINGS_SQL, [model, after, limit]);
  }

  async storeEmbeddings(chunkIds: string[], vectors: number[][], model: string): Promise<void> {
    await this.manager.query(STORE_EMBEDDINGS_SQL, [chunkIds, vectors.map(toVectorLiteral), model]);
  }

  /**
   * Replaces every chunk of the documents with `chunks` (and their vectors, null where none) and marks
   * the documents indexed, in ONE transaction: a retry after a crash leaves no duplicates, and the BM25
   * statistics follow through the triggers in the same transaction.
   */
  async replaceChunks(
    documents: IndexedDocument[],
    chunks: AnalysedChunk[],
    vectors: (number[] | null)[],
    model: string | null,
  ): Promise<void> {
    const ids = documents.map((d) => d.documentId);
    const configOf = new Map(documents.map((d) => [d.documentId, d.textConfig]));
    await this.manager.transaction(async (manager) => {
      await manager.query(`DELETE FROM chunks WHERE document_id = ANY($1::uuid[])`, [ids]);
      for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
        await insertChunks(
          manager,
          chunks.slice(i, i + INSERT_BATCH),
          vectors.slice(i, i + INSERT_BATCH),
          model,
          configOf,
        );
      }
      await manager.query(MARK_INDEXED_SQL, [
        ids,
        documents.map((d) => d.language),
        documents.map((d) => d.textConfig),
      ]);
    });
  }
}

async function insertChunks(
  manager: EntityManager,
  chunks: AnalysedChunk[],
  vectors: (number[] | null)[],
  model: string | null,
  configOf: ReadonlyMap<string, string>,
): Promise<void> {
  if (chunks.length === 0) return;
  await manager.query(INSERT_CHUNKS_SQL, [
    chunks.map((c) => c.documentId),
    chunks.map((c) => c.ordinal),
    chunks.map((c) => c.text),
    chunks.map((c) => c.indexText),
    chunks.map((c) => JSON.stringify(c.headingPath)),
    chunks.map((c) => c.anchor),
    chunks.map((c) => c.start),
    chunks.map((c) => c.end),
    vectors.map((v) => (v ? toVectorLiteral(v) : null)),
    model,
    chunks.map((c) => c.pages?.first ?? null),
    chunks.map((c) => c.pages?.last ?? null),
    chunks.map((c) => configOf.get(c.documentId)!),
    chunks.map((c) => c.lexicalText),
  ]);
}
