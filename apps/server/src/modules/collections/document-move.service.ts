import { Injectable } from '@nestjs/common';
import type { DocumentStatus, DocumentView } from '@lumina/shared';
import { ConflictError, ForbiddenError, NotFoundError } from '../../common/errors/domain-errors';
import { canRead, canWrite } from '../auth/principal';
import type { CollectionAccess } from '../auth/principal';
import { DocumentCatalogService } from '../ingestion/document-catalog.service';
import { DocumentMoveRepository } from './repositories/document-move.repository';

/** While a job writes a document's chunks, they would land in the collection it read first. */
const BEING_INDEXED: readonly DocumentStatus[] = ['parsing', 'chunking', 'embedding'];

/**
 * Moves a document into another collection: its row and its chunks' rows in one transaction (the BM25
 * triggers move its postings and statistics along), so a search never sees it half moved.
 */
@Injectable()
export class DocumentMoveService {
  constructor(
    private readonly moves: DocumentMoveRepository,
    private readonly catalog: DocumentCatalogService,
  ) {}

  async move(access: CollectionAccess, documentId: string, collectionId: string): Promise<DocumentView> {
    try {
      await this.moveInTransaction(access, documentId, collectionId);
    } catch (error) {
      // The same file uploaded into the target between the check and the move.
      if (isUniqueViolation(error, 'documents_collection_hash_key')) {
        throw new ConflictError(
          `Collection ${collectionId} already holds the same file as document ${documentId}; a collection holds each file once.`,
        );
      }
      throw error;
    }
    return this.catalog.view(documentId, access);
  }

  private async moveInTransaction(
    access: CollectionAccess,
    documentId: string,
    collectionId: string,
  ): Promise<void> {
    await this.moves.transaction(async (tx) => {
      const document = await tx.document(documentId);
      if (!document || !canRead(access, document.collection_id)) {
        throw new NotFoundError(`No document has the id ${documentId}.`);
      }
      const target = await tx.target(collectionId);
      if (!target || !canRead(access, collectionId)) {
        throw new NotFoundError(`No collection has the id ${collectionId}.`);
      }
      for (const id of [document.collection_id, collectionId]) {
        if (!canWrite(access, id)) {
          throw new ForbiddenError(
            `This key may read collection ${id} but not change it: moving a document needs write grants on both collections.`,
          );
        }
      }
      if (document.collection_id === collectionId) return;
      if (target.deleting) {
        throw new ConflictError(`Collection ${collectionId} is being deleted; it takes no new documents.`);
      }
      if (document.source_deleting) {
        throw new ConflictError(
          `Document ${documentId} is being deleted with its collection ${document.collection_id}.`,
        );
      }
      if (document.source_id) {
        throw new ConflictError(
          `Document ${documentId} comes from source ${document.source_id}, which keeps it in its collection; ` +
            'move the source instead, or delete it keeping its documents first.',
        );
      }
      if (BEING_INDEXED.includes(document.status)) {
        throw new ConflictError(
          `Document ${documentId} is being indexed (${document.status}); move it once it is indexed or failed.`,
        );
      }
      const twin = await tx.sameBytes(collectionId, document.content_hash);
      if (twin) {
        throw new ConflictError(
          `Collection ${collectionId} already holds the same file as document ${documentId} (document ${twin}); ` +
            'a collection holds each file once.',
        );
      }
      await tx.move(documentId, collectionId);
    });
  }
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const failure = error as { code?: string; constraint?: string; message?: string };
  return (
    failure.code === '23505' && `${failure.constraint ?? ''} ${failure.message ?? ''}`.includes(constraint)
  );
}
