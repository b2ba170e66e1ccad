import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DocumentStatus } from '@lumina/shared';
import { DataSource } from 'typeorm';
import type { SourceFormat } from '../../ingestion/uploads/supported-formats';
import {
  CANCEL_WORKING_SQL,
  COLLECTION_DOCUMENTS_SQL,
  COUNT_BANKS_SQL,
  DELETE_BM25_ROWS_SQL,
  DELETE_COLLECTION_SQL,
  DELETE_DOCUMENTS_SQL,
  NONZERO_BM25_SQL,
} from './collection-deletion.sql';

/** A document of a collection being deleted: what removing it needs. */
export interface CollectionDocument {
  id: string;
  status: DocumentStatus;
  format: SourceFormat | null;
}

/** What a deletion job removes, batch by batch, and then the collection itself. */
@Injectable()
export class CollectionDeletionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The next `limit` documents of the collection. */
  documents(collectionId: string, limit: number): Promise<CollectionDocument[]> {
    return this.dataSource.query(COLLECTION_DOCUMENTS_SQL, [collectionId, limit]);
  }

  /** Cancels the documents that are queued or in progress, so their jobs stop at their next step. */
  async cancelWorking(ids: string[]): Promise<void> {
    await this.dataSource.query(CANCEL_WORKING_SQL, [ids]);
  }

  /** Deletes the documents (chunks, vectors and BM25 postings go with them); how many of each went. */
  async deleteDocuments(collectionId: string, ids: string[]): Promise<{ documents: number; chunks: number }> {
    const [counts]: { documents: number; chunks: number }[] = await this.dataSource.query(
      DELETE_DOCUMENTS_SQL,
      [ids, collectionId],
    );
    return counts;
  }

  async countBanks(collectionId: string): Promise<number> {
    const [{ banks }]: { banks: number }[] = await this.dataSource.query(COUNT_BANKS_SQL, [collectionId]);
    return banks;
  }

  /**
   * Deletes the collection (banks and rerankers by cascade) and then its BM25 rows, in one transaction.
   * Returns what its statistics still counted (zero, unless they had drifted).
   */
  async deleteCollection(collectionId: string): Promise<{ terms: number; chunks: number }> {
    return this.dataSource.transaction(async (manager) => {
      const [left]: { terms: number; chunks: number }[] = await manager.query(NONZERO_BM25_SQL, [
        collectionId,
      ]);
      await manager.query(DELETE_COLLECTION_SQL, [collectionId]);
      for (const sql of DELETE_BM25_ROWS_SQL) await manager.query(sql, [collectionId]);
      return left;
    });
  }
}
