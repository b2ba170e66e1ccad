import { Injectable } from '@nestjs/common';
import type { MessageEvent } from '@nestjs/common';
import type { DocumentEvent, DocumentStatus } from '@lumina/shared';
import { Observable } from 'rxjs';
import { JobEventsService } from '../../jobs/job-events.service';
import { QueueName } from '../../jobs/queue-name.enum';
import { DocumentCatalogService } from './document-catalog.service';
import { IngestionQueue } from './ingestion-queue.service';
import { isIngestionProgress } from './ingestion-progress';
import { DocumentRepository } from './repositories/document.repository';
import type { CollectionAccess } from '../auth/principal';

const RANK: Record<DocumentStatus, number> = {
  queued: 0,
  parsing: 1,
  chunking: 2,
  embedding: 3,
  indexed: 4,
  failed: 4,
  cancelled: 4,
};
const FINISHED: readonly DocumentStatus[] = ['indexed', 'failed', 'cancelled'];

/** How often the stream re-reads the document, for what job events cannot tell (deletes, retries). */
const POLL_MS = 1_000;

/**
 * Live progress of one document as Server-Sent Events: the current state first, then each step the
 * worker reports (from any process, through Redis), in status-machine order, ending with indexed, failed
 * or cancelled (a deleted document); then the stream closes.
 */
@Injectable()
export class DocumentEventsService {
  constructor(
    private readonly documents: DocumentRepository,
    private readonly catalog: DocumentCatalogService,
    private readonly queue: IngestionQueue,
    private readonly jobEvents: JobEventsService,
  ) {}

  /** 404 before anything is streamed when the document does not exist. */
  async stream(documentId: string, access: CollectionAccess): Promise<Observable<MessageEvent>> {
    const row = await this.catalog.row(documentId, access);
    const jobId = IngestionQueue.ingestJobId(row.id);
    await this.jobEvents.ready(QueueName.Ingestion);
    return new Observable<MessageEvent>((subscriber) => {
      let last: DocumentEvent | null = null;
      let sequence = 0;
      let finished = false;
      const emit = (event: DocumentEvent) => {
        if (finished || !isAfter(event, last)) return;
        if (FINISHED.includes(event.status)) event.attempt = last?.attempt ?? event.attempt;
        last = event;
        subscriber.next({ id: String(++sequence), data: event });
        if (FINISHED.includes(event.status)) {
          finished = true;
          subscriber.complete();
        }
      };
      const refresh = () => {
        this.current(documentId, jobId).then(emit, (error: unknown) => {
          if (!finished) subscriber.error(error);
        });
      };
      const unsubscribe = this.jobEvents.subscribe(
        QueueName.Ingestion,
        (event) => {
          if (event.type === 'progress' && isIngestionProgress(event.data)) {
            const { stage, done, total, attempt } = event.data;
            emit({ documentId, status: stage, stage, done, total, attempt });
          } else if (event.type !== 'progress') {
            refresh();
          }
        },
        jobId,
      );
      const timer = setInterval(refresh, POLL_MS);
      refresh();
      return () => {
        finished = true;
        unsubscribe();
        clearInterval(timer);
      };
    });
  }

  /** The document's state now: its status, and its job's progress while it works. */
  private async current(documentId: string, jobId: string): Promise<DocumentEvent> {
    const row = await this.documents.state(documentId);
    if (!row) return { documentId, status: 'cancelled', stage: 'cancelled', done: 0, total: 0, attempt: 0 };
    if (FINISHED.includes(row.status)) {
      return {
        documentId,
        status: row.status,
        stage: row.status,
        done: row.chunk_count,
        total: row.chunk_count,
        attempt: 0,
        chunkCount: row.chunk_count,
        error: row.error,
      };
    }
    const job = await this.queue.snapshot(jobId);
    const progress = job && isIngestionProgress(job.progress) ? job.progress : null;
    if (progress && progress.stage === row.status) {
      return { documentId, status: row.status, ...progress, error: row.error };
    }
    return {
      documentId,
      status: row.status,
      stage: row.status,
      done: 0,
      total: 0,
      attempt: job?.attemptsStarted ?? 0,
      error: row.error,
    };
  }
}

/** Later in the status machine (or further along the same stage, or a later attempt) than `last`. */
function isAfter(event: DocumentEvent, last: DocumentEvent | null): boolean {
  if (!last) return true;
  if (FINISHED.includes(event.status)) return !FINISHED.includes(last.status);
  if (FINISHED.includes(last.status)) return false;
  if (event.attempt !== last.attempt) return event.attempt > last.attempt;
  if (RANK[event.status] !== RANK[last.status]) return RANK[event.status] > RANK[last.status];
  return event.done > last.done || event.total !== last.total;
}
