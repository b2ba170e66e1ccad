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
  collectionId: uuid('collectionId', 'a collection id')
    .optional()
    .meta({ description: 'Only the documents of this collection' }),
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

/** The collection a document is stored in ('' means absent: the "default" collection). */
const collectionIdField = z
  .preprocess(
    (value) => (typeof value === 'string' ? value.trim() || undefined : value),
    uuid('collectionId', 'a collection id').optional(),
  )
  .meta({ description: 'The collection to store it in; absent: the collection whose slug is "default"' });

/** The text fields of POST /documents (multipart), beside the files. */
export const uploadDocumentsFieldsSchema = z.strictObject({
  language: documentLanguageSchema,
  collectionId: collectionIdField,
});

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
    collectionId: collectionIdField,
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
export const INGESTION_STAGES = [
  'parsing',
  'chunking',
  'embedding',
] as const satisfies readonly DocumentStatus[];
export type IngestionStage = (typeof INGESTION_STAGES)[number];

const timestamp = z.string().meta({ format: 'date-time' });

/** What an ingestion job reports, and what the events stream and GET /documents/:id show. */
export const ingestionProgressSchema = z.object({
  stage: z.enum(INGESTION_STAGES),
  done: z.number(),
  total: z.number(),
  /** Which run of the job this is (1 for the first; a retry or a recovered crash counts up). */
  attempt: z.number(),
});
export type IngestionProgress = z.infer<typeof ingestionProgressSchema>;

/** A document in lists and answers. */
/** Where a document of a source came from. */
export const documentOriginSchema = z.object({
  /** Null when the source was deleted and its documents kept. */
  sourceId: z.string().nullable(),
  kind: z.string(),
  /** Its path in the folder or repository. */
  path: z.string(),
  /** The commit it was synced at (Git sources). */
  commit: z.string().nullable(),
  /** Where it is seen on the web at that commit, when the source has a web URL pattern. */
  url: z.string().nullable(),
});
export type DocumentOrigin = z.infer<typeof documentOriginSchema>;

export const documentViewSchema = z.object({
  id: z.string(),
  collectionId: z.string(),
  title: z.string(),
  sourceName: z.string().nullable(),
  mimeType: z.string().nullable(),
  /** The stored format: txt, md, html, pdf, docx or beir-entry. */
  format: z.string().nullable(),
  externalId: z.string().nullable(),
  status: z.enum(DOCUMENT_STATUSES),
  /** Why it failed (or why an attempt failed while it is retried), in a sentence. */
  error: z.string().nullable(),
  chunkCount: z.number(),
  byteSize: z.number(),
  /** ISO 639-1 code given at upload or detected when indexed; null before, or when it could not be told. */
  language: z.string().nullable(),
  /** The source (folder, Git repository) it was synced from, and where in it; null: uploaded. */
  origin: documentOriginSchema.nullable().optional(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type DocumentView = z.infer<typeof documentViewSchema>;

/** GET /documents/:id: the document, and its job's live progress while it is being ingested. */
export const documentDetailSchema = documentViewSchema.extend({
  jobId: z.string().nullable(),
  progress: ingestionProgressSchema.nullable(),
});
export type DocumentDetail = z.infer<typeof documentDetailSchema>;

/** A passage of a document (GET /documents/:id/chunks). */
export const chunkViewSchema = z.object({
  id: z.string(),
  ordinal: z.number(),
  text: z.string(),
  headingPath: z.array(z.string()),
  anchor: z.string().nullable(),
  spanStart: z.number(),
  spanEnd: z.number(),
  embeddingModel: z.string().nullable(),
  hasEmbedding: z.boolean(),
});
export type ChunkView = z.infer<typeof chunkViewSchema>;

/** One document of a POST /documents or /documents/text answer. */
export const acceptedDocumentSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(DOCUMENT_STATUSES),
  /** The same bytes were uploaded before: this is the existing document. */
  duplicate: z.boolean(),
  /** The ingestion job (null when the document is already indexed). */
  jobId: z.string().nullable(),
  externalId: z.string().nullable(),
});
export type AcceptedDocument = z.infer<typeof acceptedDocumentSchema>;

/** The answer of POST /documents (multipart, field `files`). */
export const acceptedDocumentsSchema = z.object({ documents: z.array(acceptedDocumentSchema) });
export type AcceptedDocuments = z.infer<typeof acceptedDocumentsSchema>;

/** One event of GET /documents/:id/events. */
export const documentEventSchema = z.object({
  documentId: z.string(),
  status: z.enum(DOCUMENT_STATUSES),
  stage: z.string(),
  done: z.number(),
  total: z.number(),
  attempt: z.number(),
  /** Sent once the document is indexed or failed. */
  chunkCount: z.number().optional(),
  /** Why it failed (null when it did not); absent once the document is gone. */
  error: z.string().nullable().optional(),
});
export type DocumentEvent = z.infer<typeof documentEventSchema>;

/** The answer of DELETE /documents/:id. */
export const deletedDocumentSchema = z.object({
  id: z.string(),
  deleted: z.literal(true),
  /** Whether an ingestion job was still queued or running (it is cancelled). */
  cancelledJob: z.boolean(),
});
export type DeletedDocument = z.infer<typeof deletedDocumentSchema>;

/** The answer of POST /documents/reembed. */
export const reembedRequestedSchema = z.object({
  /** The current embedding model. */
  model: z.string(),
  /** Chunks without a vector of that model. */
  pendingChunks: z.number(),
  /** The backfill job; null when no chunk lacks a vector. */
  jobId: z.string().nullable(),
  alreadyQueued: z.boolean(),
});
export type ReembedRequested = z.infer<typeof reembedRequestedSchema>;
