import { oneOf, pageQuerySchema, text, uuid, z } from './contract/zod';
import { DOCUMENT_LANGUAGES } from './languages';
/** Ingestion status machine: queued → parsing → chunking → embedding → indexed, or failed / cancelled. */
export type DocumentStatus =
  'queued' | 'parsing' | 'chunking' | 'embedding' | 'indexed' | 'failed' | 'cancelled';

export const DOCUMENT_STATUSES = [
  'queued',
  'parsing',
  'chunking',
  'embedding',
  'indexed',
  'failed',
  'cancelled',
] as const satisfies readonly DocumentStatus[];

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
export const listDocumentsQuerySchema = pageQuerySchema.extend({
  search: text('search', 200).optional().meta({ description: 'Words in the title (case-insensitive)' }),
  status: oneOf('status', DOCUMENT_STATUSES).optional(),
});
export type ListDocumentsQuery = z.infer<typeof listDocumentsQuerySchema>;

/** GET /documents/:id/chunks: a page, or with `chunk` (and no `page`) the page that holds that passage. */
export const listChunksQuerySchema = pageQuerySchema.extend({
  chunk: uuid('chunk', 'a chunk id')
    .optional()
    .meta({ description: 'Answer the page that holds this chunk of the document instead of `page`' }),
});
export type ListChunksQuery = z.infer<typeof listChunksQuerySchema>;

/** The optional `language` of an upload: an ISO 639-1 code that overrides detection ('' means absent). */
export const documentLanguageSchema = z
  .preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() || undefined : value),
    z
      .string({ error: 'language must be an ISO 639-1 code such as en, de or zh' })
      .check(
        z.refine((code) => DOCUMENT_LANGUAGES.includes(code), {
          error: 'language must be an ISO 639-1 code such as en, de or zh',
        }),
      )
      .optional(),
  )
  .meta({
    description:
      'ISO 639-1 code of the language the text is written in: it picks the stemming and word ' +
      'segmentation. Detected from the text when absent.',
    example: 'zh',
  });

/** The text fields of POST /documents (multipart), beside the files. */
export const uploadDocumentsFieldsSchema = z.strictObject({ language: documentLanguageSchema });

export const MAX_DOCUMENT_TITLE_CHARS = 300;

/** Body of POST /documents/text: a document given as text (identity: the sha256 of the text's UTF-8 bytes). */
export const createTextDocumentRequestSchema = z
  .strictObject({
    title: z.preprocess(
      (value) => (typeof value === 'string' ? value.trim() : value),
      text('title', MAX_DOCUMENT_TITLE_CHARS).min(1, { error: 'title must not be empty' }),
    ),
    text: z
      .string({ error: 'text must be a string' })
      .regex(/\S/, { error: 'text must contain words, not only spaces' }),
    format: z
      .enum(['plain', 'markdown'], { error: 'format must be plain or markdown' })
      .optional()
      .meta({ description: 'markdown: cut at its headings; plain (the default): cut by sentences' }),
    language: documentLanguageSchema,
  })
  .meta({
    example: {
      title: 'Failover runbook',
      text: '# Failover\n\nPromote the standby replica, then repoint the writers.',
      format: 'markdown',
    },
  });
export type CreateTextDocumentRequest = z.infer<typeof createTextDocumentRequestSchema>;

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
