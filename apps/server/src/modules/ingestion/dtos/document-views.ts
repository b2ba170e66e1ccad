import type { DocumentStatus } from '@lumina/shared';
import type { IngestionProgress } from '../ingestion-progress';

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
