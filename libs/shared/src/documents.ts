import type { PageQuery } from './contract/zod';
/** Ingestion status machine: queued → parsing → chunking → embedding → indexed, or failed / cancelled. */
export type DocumentStatus =
  'queued' | 'parsing' | 'chunking' | 'embedding' | 'indexed' | 'failed' | 'cancelled';

export const DOCUMENT_STATUSES: readonly DocumentStatus[] = [
  'queued',
  'parsing',
  'chunking',
  'embedding',
  'indexed',
  'failed',
  'cancelled',
];

/** A paginated list answer, the same shape on every list endpoint. */
export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

/**
 * The headings to show after a document's title in a citation. A document's title now often comes from
 * its first H1, which is also the first heading of every passage under it, so "Staff Handbook › Staff
 * Handbook › Leave" drops the repeat. Compared trimmed and case-insensitively.
 */
export function headingsAfterTitle(title: string, headingPath: readonly string[]): string[] {
  const [first, ...rest] = headingPath;
  if (first !== undefined && first.trim().toLowerCase() === title.trim().toLowerCase()) return rest;
  return [...headingPath];
}

/** `?page=&limit=` of every list endpoint: 1-based page; a limit above the server's cap is capped. */
export type { PageQuery } from './contract/zod';

/** GET /documents: a page of documents, newest first, optionally by title words or status. */
export interface ListDocumentsQuery extends PageQuery {
  search?: string;
  status?: DocumentStatus;
}

/** GET /documents/:id/chunks: a page, or with `chunk` (and no `page`) the page that holds that passage. */
export interface ListChunksQuery extends PageQuery {
  chunk?: string;
}

/** Body of POST /documents/text: a document given as text (identity: the sha256 of the text's UTF-8 bytes). */
export interface CreateTextDocumentRequest {
  title: string;
  text: string;
  /** markdown: cut at its headings; plain (the default): cut by sentences. */
  format?: 'plain' | 'markdown';
  /** ISO 639-1 code (stemming, word segmentation); detected when absent. */
  language?: string;
}

/** The working stages of the status machine, in order (each one is also the document's status). */
export type IngestionStage = 'parsing' | 'chunking' | 'embedding';

/** What an ingestion job reports, and what the events stream and GET /documents/:id show. */
export interface IngestionProgress {
  stage: IngestionStage;
  done: number;
  total: number;
  /** Which run of the job this is (1 for the first; a retry or a recovered crash counts up). */
  attempt: number;
}

/** A document in lists and answers. */
export interface DocumentView {
  id: string;
  title: string;
  sourceName: string | null;
  mimeType: string | null;
  /** The stored format: txt, md, html, pdf, docx or beir-entry. */
  format: string | null;
  externalId: string | null;
  status: DocumentStatus;
  /** Why it failed (or why an attempt failed while it is retried), in a sentence. */
  error: string | null;
  chunkCount: number;
  byteSize: number;
  /** ISO 639-1 code given at upload or detected when indexed; null before, or when it could not be told. */
  language: string | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /documents/:id: the document, and its job's live progress while it is being ingested. */
export interface DocumentDetail extends DocumentView {
  jobId: string | null;
  progress: IngestionProgress | null;
}

/** A passage of a document (GET /documents/:id/chunks). */
export interface ChunkView {
  id: string;
  ordinal: number;
  text: string;
  headingPath: string[];
  anchor: string | null;
  spanStart: number;
  spanEnd: number;
  embeddingModel: string | null;
  hasEmbedding: boolean;
}

/** One document of a POST /documents or /documents/text answer. */
export interface AcceptedDocument {
  id: string;
  title: string;
  status: DocumentStatus;
  /** The same bytes were uploaded before: this is the existing document. */
  duplicate: boolean;
  /** The ingestion job (null when the document is already indexed). */
  jobId: string | null;
  externalId: string | null;
}

/** The answer of POST /documents (multipart, field `files`). */
export interface AcceptedDocuments {
  documents: AcceptedDocument[];
}

/** One event of GET /documents/:id/events. */
export interface DocumentEvent {
  documentId: string;
  status: DocumentStatus;
  stage: string;
  done: number;
  total: number;
  attempt: number;
  chunkCount?: number;
  error?: string | null;
}

/** The answer of DELETE /documents/:id. */
export interface DeletedDocument {
  id: string;
  deleted: true;
  /** Whether an ingestion job was still queued or running (it is cancelled). */
  cancelledJob: boolean;
}

/** The answer of POST /documents/reembed. */
export interface ReembedRequested {
  /** The current embedding model. */
  model: string;
  /** Chunks without a vector of that model. */
  pendingChunks: number;
  /** The backfill job; null when no chunk lacks a vector. */
  jobId: string | null;
  alreadyQueued: boolean;
}
