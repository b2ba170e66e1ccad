import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { DOCUMENT_CHUNK_COUNTS_SQL, DOCUMENTS_BY_EXTERNAL_ID_SQL, PASSAGES_SQL } from './corpus.sql';

/** A chunk to write a question from, with its document's title. */
export interface PassageRow {
  chunk_id: string;
  document_id: string;
  ordinal: number;
  text: string;
  heading_path: string[];
  title: string;
}

/** External ids looked up per statement. */
const EXTERNAL_ID_BATCH = 5000;

/**
 * What question banks and their evaluations read of the indexed documents: which documents and chunks
 * exist (expected sources), and passages to write questions from.
 */
@Injectable()
export class CorpusRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  /** Of these document ids (uuids), the ones that exist (in `collectionId` when given). */
  async existingDocumentIds(ids: string[], collectionId: string | null = null): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows: { id: string }[] = await this.manager.query(
      `SELECT id FROM documents WHERE id = ANY($1::uuid[]) AND ($2::uuid IS NULL OR collection_id = $2::uuid)`,
      [ids, collectionId],
    );
    return new Set(rows.map((row) => row.id));
  }

  /**
   * The ids of the documents with each external id (within `dataset` and `collectionId` when given), in
   * id order.
   */
  async documentsByExternalId(
    externalIds: string[],
    dataset: string | null,
    collectionId: string | null = null,
  ): Promise<Map<string, string[]>> {
    const byExternal = new Map<string, string[]>();
    for (let i = 0; i < externalIds.length; i += EXTERNAL_ID_BATCH) {
      const rows: { id: string; external_id: string }[] = await this.manager.query(
        DOCUMENTS_BY_EXTERNAL_ID_SQL,
        [externalIds.slice(i, i + EXTERNAL_ID_BATCH), dataset, collectionId],
      );
      for (const row of rows)
        byExternal.set(row.external_id, [...(byExternal.get(row.external_id) ?? []), row.id]);
    }
    return byExternal;
  }

  /** The document of each of these chunks (uuids) that exists (in `collectionId` when given). */
  async documentsOfChunks(
    chunkIds: string[],
    collectionId: string | null = null,
  ): Promise<Map<string, string>> {
    if (chunkIds.length === 0) return new Map();
    const rows: { id: string; document_id: string }[] = await this.manager.query(
      `SELECT id, document_id FROM chunks
       WHERE id = ANY($1::uuid[]) AND ($2::uuid IS NULL OR collection_id = $2::uuid)`,
      [chunkIds, collectionId],
    );
    return new Map(rows.map((row) => [row.id, row.document_id]));
  }

  /** These documents (those that exist in `collectionId`) with their status and chunk count. */
  documentsWithChunkCounts(
    ids: string[],
    collectionId: string,
  ): Promise<{ id: string; status: string; chunks: number }[]> {
    return this.manager.query(DOCUMENT_CHUNK_COUNTS_SQL, [ids, collectionId]);
  }

  /** Every chunk of these documents, document by document in reading order. */
  passages(documentIds: string[]): Promise<PassageRow[]> {
    return this.manager.query(PASSAGES_SQL, [documentIds]);
  }
}
