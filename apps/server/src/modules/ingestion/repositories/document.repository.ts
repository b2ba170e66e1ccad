import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { DocumentStatus } from '@lumina/shared';
import { EntityManager } from 'typeorm';
import type { SourceFormat } from '../uploads/supported-formats';
import {
  ADVANCE_SQL,
  COUNT_DOCUMENTS_SQL,
  DOCUMENT_COLUMNS,
  DOCUMENT_PAGE_SQL,
  FAIL_SQL,
  INGESTED_DOCUMENT_SQL,
  INSERT_DOCUMENTS_SQL,
  RETRY_LATER_SQL,
  START_INGESTION_SQL,
  STORED_DOCUMENT_COLUMNS,
} from './documents.sql';
import { STRANDED_DOCUMENTS_SQL } from './stranded-documents.sql';

/** A document as the API shows it. */
export interface DocumentRow {
  id: string;
  collection_id: string;
  title: string;
  source_name: string | null;
  mime_type: string | null;
  format: string | null;
  external_id: string | null;
  status: DocumentStatus;
  error: string | null;
  chunk_count: number;
  byte_size: string | number;
  language: string | null;
  content_hash: string;
  created_at: Date;
  updated_at: Date;
  /** The source it was synced from; null: uploaded, or its source was deleted and it kept. */
  source_id: string | null;
  /** What its source recorded: kind, path, commit, url (metadata.source); null: uploaded. */
  origin: { kind: string; path: string; commit?: string; url?: string } | null;
}

/** What an upload of the same bytes, or a deletion, needs to know of a stored document. */
export interface StoredDocument {
  id: string;
  collection_id: string;
  title: string;
  status: DocumentStatus;
  content_hash: string;
  external_id: string | null;
  format: SourceFormat | null;
}

/** What the ingestion job reads of its document. */
export interface IngestedDocument {
  id: string;
  title: string;
  source_name: string | null;
  status: DocumentStatus;
  chunk_count: number;
  format: SourceFormat | null;
  /** Given at upload, or detected by an earlier run; null: detect it. */
  language: string | null;
}

/** A document's row to insert (queued). */
export interface NewDocument {
  title: string;
  sourceName: string | null;
  mimeType: string;
  contentHash: string;
  externalId: string | null;
  byteSize: number;
  metadata: Record<string, unknown>;
  /** Given at upload (ISO 639-1); null: detected when indexed. */
  language: string | null;
}

/** A document left queued or in progress, for the reconciler. */
export interface StrandedDocument {
  id: string;
  status: DocumentStatus;
}

/** Which documents a list shows; null: any. */
export interface DocumentFilter {
  /** An ILIKE pattern on the title. */
  search: string | null;
  status: DocumentStatus | null;
  collectionId: string | null;
  /** The collections the caller may read; null: every collection. */
  readable: readonly string[] | null;
}

/** The documents table: the catalog's reads, uploads and deletions, and each job's status machine. */
@Injectable()
export class DocumentRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  async count(filter: DocumentFilter): Promise<number> {
    const [{ total }]: { total: number }[] = await this.manager.query(COUNT_DOCUMENTS_SQL, [
      filter.search,
      filter.status,
      filter.collectionId,
      filter.readable,
    ]);
    return total;
  }

  /** The documents `count` counts, newest first. */
  page(filter: DocumentFilter, offset: number, limit: number): Promise<DocumentRow[]> {
    return this.manager.query(DOCUMENT_PAGE_SQL, [
      filter.search,
      filter.status,
      filter.collectionId,
      filter.readable,
      limit,
      offset,
    ]);
  }

  async find(id: string): Promise<DocumentRow | null> {
    const rows: DocumentRow[] = await this.manager.query(
      `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Its status, chunk count and error: what the progress stream reports. */
  async state(
    id: string,
  ): Promise<{ status: DocumentStatus; chunk_count: number; error: string | null } | null> {
    const rows: { status: DocumentStatus; chunk_count: number; error: string | null }[] =
      await this.manager.query(`SELECT status, chunk_count, error FROM documents WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  async findStored(id: string): Promise<StoredDocument | null> {
    const rows: StoredDocument[] = await this.manager.query(
      `SELECT ${STORED_DOCUMENT_COLUMNS} FROM documents WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** The uploaded documents of the collection with these content hashes (a source's documents are its own). */
  async findStoredByHash(collectionId: string, contentHashes: string[]): Promise<StoredDocument[]> {
    if (contentHashes.length === 0) return [];
    return this.manager.query(
      `SELECT ${STORED_DOCUMENT_COLUMNS} FROM documents
       WHERE collection_id = $1 AND content_hash = ANY($2::text[]) AND source_id IS NULL`,
      [collectionId, contentHashes],
    );
  }

  /** Inserts into the collection the documents whose content hash is new there, queued; returns those inserted. */
  insertNew(collectionId: string, documents: NewDocument[]): Promise<{ id: string; content_hash: string }[]> {
    return this.manager.query(INSERT_DOCUMENTS_SQL, [
      documents.map((d) => d.title),
      documents.map((d) => d.sourceName),
      documents.map((d) => d.mimeType),
      documents.map((d) => d.contentHash),
      documents.map((d) => d.externalId),
      documents.map((d) => d.byteSize),
      documents.map((d) => JSON.stringify(d.metadata)),
      documents.map((d) => d.language),
      collectionId,
    ]);
  }

  /** Marks the document cancelled if it is queued or in progress. */
  async cancelIfWorking(id: string): Promise<void> {
    await this.manager.query(
      `UPDATE documents SET status = 'cancelled', updated_at = now()
       WHERE id = $1 AND status IN ('queued', 'parsing', 'chunking', 'embedding')`,
      [id],
    );
  }

  /** Deletes a document with its chunks and vectors (BM25 postings follow by trigger). */
  async delete(id: string): Promise<void> {
    await this.manager.query(`DELETE FROM documents WHERE id = $1`, [id]);
  }

  async deleteMany(ids: string[]): Promise<void> {
    await this.manager.query(`DELETE FROM documents WHERE id = ANY($1::uuid[])`, [ids]);
  }

  /** Queues a failed or cancelled document again, clearing its error. */
  async requeue(id: string): Promise<void> {
    await this.manager.query(
      `UPDATE documents SET status = 'queued', error = NULL, updated_at = now() WHERE id = $1`,
      [id],
    );
  }

  /** Fails the documents still queued, saying why. */
  async failQueued(ids: string[], error: string): Promise<void> {
    await this.manager.query(
      `UPDATE documents SET status = 'failed', error = $2, updated_at = now()
       WHERE id = ANY($1::uuid[]) AND status = 'queued'`,
      [ids, error],
    );
  }

  /** Moves an unfinished document to 'parsing' and reads it, in one statement; null when finished or gone. */
  async startIngestion(id: string): Promise<IngestedDocument | null> {
    // An UPDATE answers [rows, affected count] through TypeORM.
    const [rows]: [IngestedDocument[], number] = await this.manager.query(START_INGESTION_SQL, [id]);
    return rows[0] ?? null;
  }

  async findIngested(id: string): Promise<IngestedDocument | null> {
    const rows: IngestedDocument[] = await this.manager.query(INGESTED_DOCUMENT_SQL, [id]);
    return rows[0] ?? null;
  }

  async setTitle(id: string, title: string): Promise<void> {
    await this.manager.query(`UPDATE documents SET title = $2 WHERE id = $1`, [id, title]);
  }

  /** Moves an unfinished document to `status`; false when it is finished (e.g. cancelled) or gone. */
  async advance(id: string, status: DocumentStatus): Promise<boolean> {
    // An UPDATE answers [rows, affected count] through TypeORM.
    const [, updated]: [unknown[], number] = await this.manager.query(ADVANCE_SQL, [id, status]);
    return updated > 0;
  }

  async status(id: string): Promise<DocumentStatus | null> {
    const rows: { status: DocumentStatus }[] = await this.manager.query(
      `SELECT status FROM documents WHERE id = $1`,
      [id],
    );
    return rows[0]?.status ?? null;
  }

  /** An unfinished document back to queued after a failed attempt, with the reason. */
  async retryLater(id: string, error: string): Promise<void> {
    await this.manager.query(RETRY_LATER_SQL, [id, error]);
  }

  /** An unfinished document failed, with a sentence a person understands. */
  async fail(id: string, error: string): Promise<void> {
    await this.manager.query(FAIL_SQL, [id, error]);
  }

  /** Queued or in-progress documents that have not moved for `graceMs`, oldest first. */
  stranded(graceMs: number, limit: number): Promise<StrandedDocument[]> {
    return this.manager.query(STRANDED_DOCUMENTS_SQL, [graceMs, limit]);
  }
}
