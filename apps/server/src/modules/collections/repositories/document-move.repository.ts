import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DocumentStatus } from '@lumina/shared';
import { DataSource } from 'typeorm';
import type { EntityManager } from 'typeorm';
import {
  LOCK_DOCUMENT_SQL,
  LOCK_TARGET_SQL,
  MOVE_CHUNKS_SQL,
  MOVE_DOCUMENT_SQL,
  SAME_BYTES_SQL,
} from './document-move.sql';

/** The document being moved, locked, with whether its own collection is being deleted. */
export interface MovingDocument {
  id: string;
  collection_id: string;
  content_hash: string;
  status: DocumentStatus;
  source_deleting: boolean;
  /** The source (folder, Git repository, website) the document was made from; null: uploaded. */
  source_id: string | null;
}

/** The reads and writes of one move, inside its transaction. */
export interface MoveTransaction {
  /** The document, locked until the move commits; null when there is none. */
  document(id: string): Promise<MovingDocument | null>;
  /** The target collection, kept from being marked for deletion until the move commits. */
  target(collectionId: string): Promise<{ id: string; deleting: boolean } | null>;
  /** The document of the collection holding these bytes, if any. */
  sameBytes(collectionId: string, contentHash: string): Promise<string | null>;
  /** Moves the document and its chunks. */
  move(documentId: string, collectionId: string): Promise<void>;
}

/** Moving a document into another collection: its row and its chunks' rows, in one transaction. */
@Injectable()
export class DocumentMoveRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (move: MoveTransaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(moveTransaction(manager)));
  }
}

function moveTransaction(manager: EntityManager): MoveTransaction {
  return {
    async document(id) {
      const rows: MovingDocument[] = await manager.query(LOCK_DOCUMENT_SQL, [id]);
      return rows[0] ?? null;
    },
    async target(collectionId) {
      const rows: { id: string; deleting: boolean }[] = await manager.query(LOCK_TARGET_SQL, [collectionId]);
      return rows[0] ?? null;
    },
    async sameBytes(collectionId, contentHash) {
      const rows: { id: string }[] = await manager.query(SAME_BYTES_SQL, [collectionId, contentHash]);
      return rows[0]?.id ?? null;
    },
    async move(documentId, collectionId) {
      await manager.query(MOVE_DOCUMENT_SQL, [documentId, collectionId]);
      await manager.query(MOVE_CHUNKS_SQL, [documentId, collectionId]);
    },
  };
}
