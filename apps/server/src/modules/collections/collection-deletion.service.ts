import { Injectable, Logger } from '@nestjs/common';
import { IngestionQueue } from '../ingestion/ingestion-queue.service';
import { UploadStore } from '../ingestion/uploads/upload-store';
import { CollectionDeletionRepository } from './repositories/collection-deletion.repository';
import { CollectionRepository } from './repositories/collection.repository';

/** Documents removed per transaction: small enough that each batch's BM25 trigger work stays short. */
const BATCH = 200;

/** What a deletion job reports as it goes. */
export interface DeletionProgress {
  documentsRemoved: number;
  documentsLeft: number;
}

/** A deletion job's return value (BullMQ keeps it). */
export interface DeletionOutcome {
  collectionId: string;
  outcome: 'deleted' | 'gone' | 'not-deleting';
  documents: number;
  chunks: number;
  banks: number;
}

/**
 * The deletion job: removes a collection that a request marked as being deleted. Its documents go in
 * batches (a job still working on one is cancelled and stops at its next step; the stored upload files
 * are removed), then the collection row with its question banks and rerankers (by cascade), then its
 * BM25 statistics rows. Idempotent: a retried job carries on with what is left.
 */
@Injectable()
export class CollectionDeletionService {
  private readonly logger = new Logger(CollectionDeletionService.name);

  constructor(
    private readonly collections: CollectionRepository,
    private readonly deletion: CollectionDeletionRepository,
    private readonly queue: IngestionQueue,
    private readonly files: UploadStore,
  ) {}

  async execute(
    collectionId: string,
    report: (progress: DeletionProgress) => Promise<void> = async () => undefined,
  ): Promise<DeletionOutcome> {
    const outcome: DeletionOutcome = { collectionId, outcome: 'deleted', documents: 0, chunks: 0, banks: 0 };
    const state = await this.collections.state(collectionId);
    if (!state) return { ...outcome, outcome: 'gone' };
    // Only a collection a request marked is deleted (a request whose job could not be queued unmarks it).
    if (!state.deleting) return { ...outcome, outcome: 'not-deleting' };

    for (;;) {
      const batch = await this.deletion.documents(collectionId, BATCH);
      if (batch.length === 0) break;
      const ids = batch.map((document) => document.id);
      await this.deletion.cancelWorking(ids);
      const working = batch.filter((document) => !FINISHED.has(document.status));
      for (const document of working) await this.queue.cancelIngestion(document.id);
      const removed = await this.deletion.deleteDocuments(collectionId, ids);
      await Promise.all(
        batch.map((document) =>
          document.format ? this.files.remove(document.id, document.format) : Promise.resolve(),
        ),
      );
      outcome.documents += removed.documents;
      outcome.chunks += removed.chunks;
      const left = (await this.collections.find(collectionId))?.document_count ?? 0;
      await report({ documentsRemoved: outcome.documents, documentsLeft: left });
    }

    outcome.banks = await this.deletion.countBanks(collectionId);
    const drift = await this.deletion.deleteCollection(collectionId);
    if (drift.terms !== 0 || drift.chunks !== 0) {
      this.logger.warn(
        `collection ${collectionId}: its BM25 statistics still counted ${drift.chunks} chunks and ` +
          `${drift.terms} terms with every chunk gone; their rows were removed with the collection`,
      );
    }
    this.logger.log(
      `collection ${collectionId} deleted: ${outcome.documents} documents, ${outcome.chunks} chunks, ` +
        `${outcome.banks} question banks`,
    );
    return outcome;
  }
}

const FINISHED = new Set(['indexed', 'failed', 'cancelled']);
