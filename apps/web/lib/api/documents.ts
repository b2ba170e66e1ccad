/** The document library: list, open, upload, add text, delete, and follow an ingestion live. */
import {
  acceptedDocumentSchema,
  acceptedDocumentsSchema,
  chunkViewSchema,
  deletedDocumentSchema,
  documentDetailSchema,
  documentEventSchema,
  documentViewSchema,
  pageOf,
} from '@lumina/shared';
import type {
  AcceptedDocument,
  AcceptedDocuments,
  ChunkView,
  CreateTextDocumentRequest,
  DeletedDocument,
  DocumentDetail,
  DocumentEvent,
  DocumentView,
  ListChunksQuery,
  ListDocumentsQuery,
  MoveDocumentRequest,
  Page,
} from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import { parsedBy, type OrNull } from './read';
import { queryOf, type RequestOptions, type Transport } from './transport';

/** One event of GET /documents/:id/events as the ingestion store applies it. */
export type DocumentEventView = Pick<DocumentEvent, 'status' | 'stage' | 'done' | 'total'> &
  OrNull<Required<Pick<DocumentEvent, 'error' | 'chunkCount'>>>;

const documentPage = parsedBy(pageOf(documentViewSchema));
const documentDetail = parsedBy(documentDetailSchema);
const chunkPage = parsedBy(pageOf(chunkViewSchema));
const accepted = parsedBy(acceptedDocumentSchema);
const acceptedBatch = parsedBy(acceptedDocumentsSchema);
const deleted = parsedBy(deletedDocumentSchema);
const documentView = parsedBy(documentViewSchema);

/** Where an upload goes: a collection's id (absent: the collection whose slug is "default"). */
export interface UploadTarget {
  collectionId?: string;
}

/** One event of GET /documents/:id/events (its data, JSON); null when it is not one. */
export function parseDocumentEvent(data: string): DocumentEventView | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const event = documentEventSchema.safeParse(json);
  if (!event.success) return null;
  const { status, stage, done, total, error, chunkCount } = event.data;
  return { status, stage, done, total, error: error ?? null, chunkCount: chunkCount ?? null };
}

export function documentsApi(http: Transport) {
  const ops = API_OPERATIONS;
  return {
    listDocuments(
      query: ListDocumentsQuery = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<DocumentView>> {
      return http.json(
        ops.listDocuments,
        { query: queryOf(query), signal },
        documentPage,
        'expected a page of documents',
      );
    },

    getDocument(id: string, { signal }: RequestOptions = {}): Promise<DocumentDetail> {
      return http.json(ops.getDocument, { params: { id }, signal }, documentDetail, 'expected a document');
    },

    /** A page of the document's passages; with `chunk` (and no `page`), the page that holds that passage. */
    listChunks(
      id: string,
      query: ListChunksQuery = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<ChunkView>> {
      return http.json(
        ops.listChunks,
        { params: { id }, query: queryOf(query), signal },
        chunkPage,
        'expected a page of passages',
      );
    },

    /**
     * POST /documents (multipart, field `files`, and `collectionId` when given): accepted at once,
     * ingested in the background.
     */
    uploadDocuments(
      files: readonly File[],
      { collectionId }: UploadTarget = {},
      { signal }: RequestOptions = {},
    ): Promise<AcceptedDocuments> {
      const form = new FormData();
      if (collectionId) form.append('collectionId', collectionId);
      for (const file of files) form.append('files', file, file.name);
      return http.json(
        ops.uploadDocuments,
        { body: form, signal },
        acceptedBatch,
        'expected the uploaded documents',
      );
    },

    createTextDocument(
      input: CreateTextDocumentRequest,
      { signal }: RequestOptions = {},
    ): Promise<AcceptedDocument> {
      return http.json(
        ops.createTextDocument,
        { body: input, signal },
        accepted,
        'expected the new document',
      );
    },

    deleteDocument(id: string, { signal }: RequestOptions = {}): Promise<DeletedDocument> {
      return http.json(
        ops.deleteDocument,
        { params: { id }, signal },
        deleted,
        'expected the deleted document',
      );
    },

    /** POST /documents/:id/move: the document, its passages and vectors, now in another collection. */
    moveDocument(id: string, collectionId: string, { signal }: RequestOptions = {}): Promise<DocumentView> {
      const body: MoveDocumentRequest = { collectionId };
      return http.json(
        ops.moveDocument,
        { params: { id }, body, signal },
        documentView,
        'expected the moved document',
      );
    },

    /** GET /documents/:id/events: live progress until the document is indexed, failed or cancelled. */
    async *documentEvents(id: string, { signal }: RequestOptions = {}): AsyncGenerator<DocumentEventView> {
      for await (const message of http.stream(ops.documentEvents, { params: { id }, signal })) {
        const progress = parseDocumentEvent(message.data);
        if (progress) yield progress;
      }
    },
  };
}
