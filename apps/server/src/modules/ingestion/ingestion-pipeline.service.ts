import { readFile } from 'node:fs/promises';
import { Injectable, Logger } from '@nestjs/common';
import type { IngestionStage } from '@lumina/shared';
import { IngestionCancelledError } from './errors/ingestion-cancelled.error';
import { UnreadableDocumentError } from './errors/unreadable-document.error';
import { IndexingService } from './indexing.service';
import type { IngestionOutcome, JobAttempt } from './ingestion-progress';
import { DocumentWorkPool } from './document-work/document-work-pool';
import type { SourceFormat } from './uploads/supported-formats';
import { UploadStore } from './uploads/upload-store';
import { DocumentRepository } from './repositories/document.repository';
import type { IngestedDocument } from './repositories/document.repository';

const FOREIGN_KEY_VIOLATION = '23503';

/**
 * One document through the status machine: queued → parsing → chunking → embedding → indexed, or failed
 * (with a sentence a person understands) or cancelled (deleted meanwhile). Runs inside an ingestion job;
 * safe to run again after a crash: the chunks are replaced in one transaction, and the embeddings of
 * passages already seen come from the cache.
 */
@Injectable()
export class IngestionPipelineService {
  private readonly logger = new Logger(IngestionPipelineService.name);
  constructor(
    private readonly indexing: IndexingService,
    private readonly documents: DocumentRepository,
    private readonly work: DocumentWorkPool,
    private readonly files: UploadStore,
  ) {}

  async ingest(documentId: string, attempt: JobAttempt): Promise<IngestionOutcome> {
    const document = await this.start(documentId);
    if (!document) {
      const finished = await this.load(documentId);
      if (finished?.status === 'indexed') {
        // A crash after the commit and before the job was marked done: the work is there already.
        if (finished.format) await this.files.remove(documentId, finished.format);
        return { documentId, outcome: 'already-indexed', chunks: finished.chunk_count };
      }
      return this.cancelled(documentId, finished?.format); // deleted (or cancelled) before the job ran
    }
    const format = document.format;
    try {
      if (!format)
        throw new UnreadableDocumentError('The document has no stored file format; upload it again.');
      await attempt.report({ stage: 'parsing', done: 0, total: 1 });
      const name = document.source_name ?? document.title;
      const bytes = await this.read(documentId, format, name);
      // Parsing and chunking run on a worker thread, within a time and memory budget (DocumentWorkPool).
      const prepared = await this.work.prepare({
        documentId,
        format,
        bytes,
        name,
        title: document.title,
        titleFromFile: document.source_name !== null,
        chunking: this.indexing.chunking,
        language: document.language,
        defaultLanguage: this.indexing.defaultLanguage,
        // Read only when the document's language is to be detected (neither the upload nor the env names it).
        corpusLanguages:
          document.language || this.indexing.defaultLanguage ? {} : await this.indexing.languageCounts(),
      });
      await attempt.report({ stage: 'parsing', done: 1, total: 1 });

      await this.advance(documentId, 'chunking');
      if (prepared.title !== document.title) {
        await this.documents.setTitle(documentId, prepared.title);
      }
      await attempt.report({ stage: 'chunking', done: 1, total: 1 });
      let embedding = false;
      const outcome = await this.indexing.indexChunks(
        [{ documentId, language: prepared.language }],
        prepared.chunks,
        async (progress) => {
          if (progress.stage === 'embedding') {
            if (!embedding) {
              embedding = true;
              await this.advance(documentId, 'embedding');
            } else {
              await this.assertWanted(documentId);
            }
            await attempt.report({ stage: 'embedding', done: progress.done, total: progress.total });
          }
        },
      );
      await this.files.remove(documentId, format);
      return { documentId, outcome: 'indexed', chunks: outcome.chunks };
    } catch (error) {
      if (error instanceof IngestionCancelledError || (await this.isGone(documentId, error))) {
        return this.cancelled(documentId, format);
      }
      if (error instanceof UnreadableDocumentError) {
        await this.finishFailed(documentId, format, error.message);
        throw error;
      }
      const reason = (error as Error).message ?? String(error);
      if (attempt.attempt >= attempt.maxAttempts) {
        await this.finishFailed(
          documentId,
          format,
          `Indexing failed ${attempt.maxAttempts} times; the last error was: ${reason}`,
        );
      } else {
        await this.documents.retryLater(
          documentId,
          `Attempt ${attempt.attempt} of ${attempt.maxAttempts} failed (${reason}); retrying shortly.`,
        );
      }
      throw error;
    }
  }

  /** A job that will not run again: mark its document failed unless it already finished one way or another. */
  async markFailedIfUnfinished(documentId: string, reason: string): Promise<void> {
    const document = await this.load(documentId);
    if (!document) return;
    const message = /stalled/i.test(reason)
      ? 'The worker processing this document stopped (it crashed or was killed) too many times; upload it again to retry.'
      : reason;
    await this.finishFailed(documentId, document.format, message);
  }

  /** Move an unfinished document to 'parsing' and read it, in one statement; null when it is finished or gone. */
  private start(documentId: string): Promise<IngestedDocument | null> {
    return this.documents.startIngestion(documentId);
  }

  private load(documentId: string): Promise<IngestedDocument | null> {
    return this.documents.findIngested(documentId);
  }

  private async read(documentId: string, format: SourceFormat, name: string): Promise<Buffer> {
    try {
      return await readFile(this.files.documentPath(documentId, format));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await this.assertWanted(documentId);
      throw new UnreadableDocumentError(
        `The uploaded file "${name}" is no longer on the server (UPLOAD_DIR); upload it again.`,
      );
    }
  }

  /** Move to the next stage unless the document was deleted or cancelled meanwhile. */
  private async advance(documentId: string, status: IngestionStage): Promise<void> {
    if (!(await this.documents.advance(documentId, status))) throw new IngestionCancelledError(documentId);
  }

  private async assertWanted(documentId: string): Promise<void> {
    const status = await this.documents.status(documentId);
    if (status === null || status === 'cancelled') throw new IngestionCancelledError(documentId);
  }

  /** Deleted while its chunks were being written (the foreign key refuses them), or before. */
  private async isGone(documentId: string, error: unknown): Promise<boolean> {
    const code =
      (error as { code?: string; driverError?: { code?: string } }).code ??
      (error as { driverError?: { code?: string } }).driverError?.code;
    if (code !== FOREIGN_KEY_VIOLATION && !(error instanceof UnreadableDocumentError)) return false;
    const document = await this.load(documentId);
    return !document || document.status === 'cancelled';
  }

  private async cancelled(
    documentId: string,
    format: SourceFormat | null | undefined,
  ): Promise<IngestionOutcome> {
    if (format) await this.files.remove(documentId, format);
    this.logger.log(`document ${documentId} was deleted during ingestion; its job stopped`);
    return { documentId, outcome: 'cancelled', chunks: 0 };
  }

  private async finishFailed(
    documentId: string,
    format: SourceFormat | null,
    message: string,
  ): Promise<void> {
    await this.documents.fail(documentId, message);
    if (format) await this.files.remove(documentId, format);
  }
}
