import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { toVectorLiteral } from '../../../database/pgvector';
import { corpusLanguageCounts, textSearchConfigs } from '../../rag/repositories/text-search-configs';
import type { AnalysedChunk } from '../chunk-analysis';
import { CHUNK_POSITION_SQL } from './chunk-position.sql';
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
      `SELECT id, ordinal, text, heading_path, anchor, span_start, span_end, embedding_model,
              embedding IS NOT NULL AS has_embedding
       FROM chunks WHERE document_id = $1 ORDER BY ordinal LIMIT $2 OFFSET $3`,
      [documentId, limit, offset],
    );
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
