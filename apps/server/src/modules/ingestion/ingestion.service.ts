import { createHash } from 'node:crypto';
import { basename, extname } from 'node:path';
import { Injectable } from '@nestjs/common';
import type { EmbeddingProvider } from '@lumina/rag';
import type { BeirDocument } from '@lumina/eval';
import type { AcceptedDocument, AcceptedDocuments, DocumentStatus } from '@lumina/shared';
import { InjectEmbedder } from '../../providers/providers.module';
import type { CreateTextDocumentRequest } from '@lumina/shared';
import { IngestionQueue } from './ingestion-queue.service';
import { CorpusFormatError, readCorpusUpload } from './parsers/beir-corpus.reader';
import type { StoredFile } from './uploads/hashing-disk-storage';
import { detectUploadFormat } from './uploads/supported-formats';
import type { SourceFormat, UploadFormat } from './uploads/supported-formats';
import { findUploadProblem } from './uploads/upload-problem';
import { UploadStore } from './uploads/upload-store';
import { ChunkRepository } from './repositories/chunk.repository';
import { DocumentRepository } from './repositories/document.repository';
import type { NewDocument, StoredDocument } from './repositories/document.repository';
import { InvalidRequestError, NotFoundError, UnprocessableError } from '../../common/errors/domain-errors';
import { CollectionScope } from '../collections/collection-scope.service';
import { canRead } from '../auth/principal';
import type { CollectionAccess } from '../auth/principal';

/** A document about to be stored: what goes in its row, and how to put its file in place. */
interface Candidate extends NewDocument {
  format: SourceFormat;
  storeFile(documentId: string): Promise<void>;
}

/** A document whose job is to be queued, and what to undo when queueing fails. */
interface Queued {
  id: string;
  answer: AcceptedDocument;
  format: SourceFormat;
  undo: 'delete' | 'fail' | null;
}

type Prepared =
  | { file: StoredFile; format: UploadFormat; entries?: undefined }
  | { file: StoredFile; format: UploadFormat; entries: BeirDocument[] };

const IN_PROGRESS: readonly DocumentStatus[] = ['queued', 'parsing', 'chunking', 'embedding'];

/**
 * Takes documents in (uploads, text, BEIR corpora), deletes them, and asks for re-embedding. Never parses
 * deeply or embeds inside a request: it checks what is cheap to check, stores the file where every worker
 * can read it, and queues a job. Every document goes into one collection; within it, identity is the
 * sha256 of the bytes: the same bytes again are the existing document (re-queued if it had failed), while
 * the same bytes in another collection are another document.
 */
@Injectable()
export class IngestionService {
  constructor(
    private readonly documents: DocumentRepository,
    private readonly chunks: ChunkRepository,
    @InjectEmbedder() private readonly embedder: EmbeddingProvider,
    private readonly files: UploadStore,
    private readonly queue: IngestionQueue,
    private readonly collections: CollectionScope,
  ) {}

  /** `collectionId` absent: the collection whose slug is "default". */
  async acceptUploads(
    access: CollectionAccess,
    uploads: StoredFile[],
    language: string | null = null,
    collectionId?: string,
  ): Promise<AcceptedDocuments> {
    if (uploads.length === 0) {
      throw new InvalidRequestError(
        'Attach one or more files to upload (multipart/form-data, field "files").',
      );
    }
    const collection = await this.collections.writable(access, collectionId);
    const prepared: Prepared[] = [];
    const problems: { file: string; problem: string }[] = [];
    for (const file of uploads) {
      const format = detectUploadFormat(file.originalname, file.mimetype)!;
      const problem = findUploadProblem(file.originalname, format, file.facts);
      if (problem) {
        problems.push({ file: file.originalname, problem });
      } else if (format.corpus) {
        try {
          const entries = await readCorpusUpload(
            file.path,
            format.kind as 'json' | 'jsonl',
            file.originalname,
          );
          prepared.push({ file, format, entries });
        } catch (error) {
          if (!(error instanceof CorpusFormatError)) throw error;
          problems.push({ file: file.originalname, problem: error.message });
        }
      } else {
        prepared.push({ file, format });
      }
    }
    if (problems.length > 0) {
      throw new UnprocessableError(`${problems.map((p) => p.problem).join(' ')} Nothing was stored.`, {
        files: problems,
      });
    }
    const candidates = prepared.flatMap((item) =>
      item.entries
        ? item.entries.map((entry) => this.corpusEntry(item.file, entry, language))
        : [this.uploadedFile(item, language)],
    );
    return { documents: await this.accept(collection, candidates) };
  }

  async acceptText(access: CollectionAccess, body: CreateTextDocumentRequest): Promise<AcceptedDocument> {
    const collection = await this.collections.writable(access, body.collectionId);
    const bytes = Buffer.from(body.text, 'utf8');
    const format: SourceFormat = body.format === 'markdown' ? 'md' : 'txt';
    const [accepted] = await this.accept(collection, [
      {
        title: body.title,
        sourceName: null,
        mimeType: format === 'md' ? 'text/markdown' : 'text/plain',
        contentHash: sha256(bytes),
        externalId: null,
        byteSize: bytes.length,
        format,
        metadata: { format },
        language: body.language ?? null,
        storeFile: (id) => this.files.write(id, format, bytes),
      },
    ]);
    return accepted;
  }

  /**
   * Delete a document with its chunks and vectors (BM25 postings follow by trigger). A job that has not
   * started is removed; a running one sees the document gone at its next step and stops.
   */
  async remove(
    access: CollectionAccess,
    id: string,
  ): Promise<{ id: string; deleted: true; cancelledJob: boolean }> {
    const document = await this.documents.findStored(id);
    if (!document || !canRead(access, document.collection_id)) {
      throw new NotFoundError(`No document has the id ${id}.`);
    }
    await this.collections.assertMayChange(access, document.collection_id);
    const inProgress = IN_PROGRESS.includes(document.status);
    if (inProgress) await this.documents.cancelIfWorking(id);
    const job = await this.queue.cancelIngestion(id);
    await this.documents.delete(id);
    if (document.format) await this.files.remove(id, document.format);
    return { id, deleted: true, cancelledJob: inProgress && job !== 'none' };
  }

  /** Queue the backfill of vectors for the current embedding model, when any chunk lacks one. */
  async requestReembed(): Promise<{
    model: string;
    pendingChunks: number;
    jobId: string | null;
    alreadyQueued: boolean;
  }> {
    const model = this.embedder.modelId;
    const pending = await this.chunks.countPendingEmbeddings(model);
    if (pending === 0) return { model, pendingChunks: 0, jobId: null, alreadyQueued: false };
    const { jobId, alreadyQueued } = await this.queue.enqueueReembed(model);
    return { model, pendingChunks: pending, jobId, alreadyQueued };
  }

  private uploadedFile({ file, format }: Prepared, language: string | null): Candidate {
    const sourceFormat = format.kind as SourceFormat;
    return {
      title: titleFromFileName(file.originalname),
      sourceName: file.originalname,
      mimeType: format.mimeTypes[0],
      contentHash: file.facts.sha256,
      externalId: null,
      byteSize: file.facts.size,
      format: sourceFormat,
      metadata: { format: sourceFormat },
      language,
      storeFile: (id) => this.files.adopt(file.path, id, sourceFormat),
    };
  }

  private corpusEntry(file: StoredFile, entry: BeirDocument, language: string | null): Candidate {
    const canonical = JSON.stringify({ _id: entry.id, title: entry.title, text: entry.text });
    return {
      title: entry.title || entry.id,
      sourceName: file.originalname,
      mimeType: 'application/x-ndjson',
      contentHash: sha256(Buffer.from(canonical, 'utf8')),
      externalId: entry.id,
      byteSize: Buffer.byteLength(canonical),
      format: 'beir-entry',
      metadata: { format: 'beir-entry', corpus: file.originalname },
      language,
      storeFile: (id) =>
        this.files.write(id, 'beir-entry', JSON.stringify({ title: entry.title, text: entry.text })),
    };
  }

  /**
   * Insert new documents into the collection (batched), revive failed duplicates of the collection, and
   * queue every document that needs work.
   */
  private async accept(collectionId: string, candidates: Candidate[]): Promise<AcceptedDocument[]> {
    const answers: AcceptedDocument[] = [];
    const toQueue: Queued[] = [];
    for (let i = 0; i < candidates.length; i += 500) {
      const batch = candidates.slice(i, i + 500);
      const inserted = await this.documents.insertNew(collectionId, batch);
      const insertedIds = new Map(inserted.map((row) => [row.content_hash, row.id]));
      const existing = await this.existing(
        collectionId,
        batch.filter((c) => !insertedIds.has(c.contentHash)).map((c) => c.contentHash),
      );
      const claimed = new Set<string>();
      for (let j = 0; j < batch.length; j += 50) {
        await Promise.all(
          batch.slice(j, j + 50).map(async (candidate, k) => {
            const index = j + k;
            const id = insertedIds.get(candidate.contentHash);
            let answer: AcceptedDocument;
            if (id && !claimed.has(id)) {
              claimed.add(id);
              await candidate.storeFile(id);
              answer = {
                id,
                title: candidate.title,
                status: 'queued',
                duplicate: false,
                jobId: null,
                externalId: candidate.externalId,
              };
              toQueue.push({
                id,
                answer,
                format: candidate.format,
                undo: 'delete',
              });
            } else {
              const row =
                existing.get(candidate.contentHash) ??
                (await this.existing(collectionId, [candidate.contentHash])).get(candidate.contentHash);
              if (!row)
                throw new Error(
                  `document with content hash ${candidate.contentHash} vanished while uploading`,
                );
              answer = await this.revive(row, candidate, toQueue);
            }
            answers[i + index] = answer;
          }),
        );
      }
    }
    let jobIds: string[];
    try {
      jobIds = await this.queue.enqueueIngestion(toQueue);
    } catch (error) {
      await this.undoAccept(toQueue, error as Error);
      throw error;
    }
    toQueue.forEach((item, index) => (item.answer.jobId = jobIds[index]));
    return answers;
  }

  /**
   * The jobs could not be queued (Redis down): the request fails, so it leaves nothing stuck `queued`.
   * Documents it created are deleted with their files (sending them again starts over); failed or
   * cancelled documents it revived are failed again, with the reason, and retried by sending them again.
   * A job that did reach Redis finds its document gone, or failed, and stops.
   */
  private async undoAccept(toQueue: Queued[], error: Error): Promise<void> {
    const created = toQueue.filter((item) => item.undo === 'delete');
    const revived = toQueue.filter((item) => item.undo === 'fail').map((item) => item.id);
    if (created.length > 0) {
      await this.documents.deleteMany(created.map((item) => item.id));
      await Promise.all(created.map((item) => this.files.remove(item.id, item.format)));
    }
    if (revived.length > 0) {
      await this.documents.failQueued(
        revived,
        `Could not be queued: ${error.message} Send the document again to retry.`,
      );
    }
  }

  /** The same bytes again: an indexed document is returned as it is; a failed one is queued again. */
  private async revive(
    row: StoredDocument,
    candidate: Candidate,
    toQueue: Queued[],
  ): Promise<AcceptedDocument> {
    const answer: AcceptedDocument = {
      id: row.id,
      title: row.title,
      status: row.status,
      duplicate: true,
      jobId: null,
      externalId: row.external_id,
    };
    if (row.status === 'indexed') return answer;
    const format = row.format ?? candidate.format;
    if (!(await this.files.exists(row.id, format))) await candidate.storeFile(row.id);
    const failed = row.status === 'failed' || row.status === 'cancelled';
    if (failed) {
      await this.documents.requeue(row.id);
      answer.status = 'queued';
    }
    toQueue.push({ id: row.id, answer, format, undo: failed ? 'fail' : null });
    return answer;
  }

  private async existing(
    collectionId: string,
    contentHashes: string[],
  ): Promise<Map<string, StoredDocument>> {
    const rows = await this.documents.findStoredByHash(collectionId, contentHashes);
    return new Map(rows.map((row) => [row.content_hash, row]));
  }
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function titleFromFileName(name: string): string {
  const base = basename(name, extname(name)).replace(/[_]+/g, ' ').trim();
  return base || name;
}
