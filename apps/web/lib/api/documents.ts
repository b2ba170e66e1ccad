/** The document library: list, open, upload, add text, delete, and follow an ingestion live. */
import {
  acceptedDocumentSchema,
  acceptedDocumentsSchema,
  chunkViewSchema,
  deletedDocumentSchema,
  DOCUMENT_STATUSES,
  documentDetailSchema,
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
  DocumentStatus,
  DocumentView,
  ListChunksQuery,
  ListDocumentsQuery,
  Page,
} from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import { isRecord, num, optNum, optStr, parsedBy, str, type OrNull } from './read';
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

export function parseDocumentStatus(value: unknown): DocumentStatus | null {
  return typeof value === 'string' && (DOCUMENT_STATUSES as readonly string[]).includes(value)
    ? (value as DocumentStatus)
    : null;
}

/** One event of GET /documents/:id/events: `{ status?, stage, done, total, error? }`. */
export function parseDocumentEvent(data: string, previous: DocumentStatus): DocumentEventView | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isRecord(json)) return null;
  const progress = isRecord(json.progress) ? { ...json, ...json.progress } : json;
  const stage = str(progress.stage);
  const status = parseDocumentStatus(progress.status) ?? parseDocumentStatus(stage) ?? previous;
  return {
    status,
    stage: stage || status,
    done: num(progress.done),
    total: num(progress.total),
    error: optStr(progress.error ?? progress.message ?? progress.reason),
    chunkCount: optNum(progress.chunkCount),
  };
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

    /** POST /documents (multipart, field `files`): accepted at once, ingested in the background. */
    uploadDocuments(files: readonly File[], { signal }: RequestOptions = {}): Promise<AcceptedDocuments> {
      const form = new FormData();
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

    /** GET /documents/:id/events: live progress until the document is indexed, failed or cancelled. */
    async *documentEvents(
      id: string,
      current: DocumentStatus,
      { signal }: RequestOptions = {},
    ): AsyncGenerator<DocumentEventView> {
      let status = current;
      for await (const message of http.stream(ops.documentEvents, { params: { id }, signal })) {
        const progress = parseDocumentEvent(message.data, status);
        if (!progress) continue;
        status = progress.status;
        yield progress;
      }
    },
  };
}
