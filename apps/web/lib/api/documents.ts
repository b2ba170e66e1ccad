/** The document library: list, open, upload, add text, delete, and follow an ingestion live. */
import { DOCUMENT_STATUSES } from '@lumina/shared';
import type {
  AcceptedDocument,
  ChunkView,
  CreateTextDocumentRequest,
  DocumentEvent,
  DocumentStatus,
  DocumentView,
  ListChunksQuery,
  ListDocumentsQuery,
  Page,
} from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import { isRecord, num, optNum, optStr, parsePage, str, strings, type OrNull } from './read';
import { queryOf, type RequestOptions, type Transport } from './transport';

/** A document as the library lists it. */
export type LuminaDocument = Pick<
  DocumentView,
  | 'id'
  | 'title'
  | 'sourceName'
  | 'mimeType'
  | 'status'
  | 'error'
  | 'chunkCount'
  | 'byteSize'
  | 'createdAt'
  | 'updatedAt'
>;

/**
 * A passage of a document as its page shows it: `anchor` is '' without a heading, the span null when
 * the server did not say, and `documentId` '' unless the answer carried it.
 */
export type DocumentChunk = Pick<ChunkView, 'id' | 'ordinal' | 'headingPath' | 'text'> & {
  documentId: DocumentView['id'];
  anchor: string;
  spanStart: number | null;
  spanEnd: number | null;
};

/** One accepted file of an upload. */
export type UploadedDocument = Pick<AcceptedDocument, 'id' | 'title' | 'status' | 'jobId' | 'duplicate'>;

/** A file an upload answer names as refused (read when a server reports refusals per file). */
export type UploadRejection = { filename: string; message: string };

/** POST /documents or /documents/text as the library reads it. */
export type UploadResult = { documents: UploadedDocument[]; rejected: UploadRejection[] };

/** One event of GET /documents/:id/events as the ingestion store applies it. */
export type DocumentEventView = Pick<DocumentEvent, 'status' | 'stage' | 'done' | 'total'> &
  OrNull<Required<Pick<DocumentEvent, 'error' | 'chunkCount'>>>;

export function parseDocumentStatus(value: unknown): DocumentStatus | null {
  return typeof value === 'string' && (DOCUMENT_STATUSES as readonly string[]).includes(value)
    ? (value as DocumentStatus)
    : null;
}

export function parseDocument(value: unknown): LuminaDocument | null {
  if (!isRecord(value) || typeof value.id !== 'string') return null;
  return {
    id: value.id,
    title: str(value.title) || str(value.sourceName) || 'Untitled document',
    sourceName: optStr(value.sourceName ?? value.filename),
    mimeType: optStr(value.mimeType),
    status: parseDocumentStatus(value.status) ?? 'queued',
    error: optStr(value.error),
    chunkCount: num(value.chunkCount),
    byteSize: num(value.byteSize),
    createdAt: str(value.createdAt),
    updatedAt: str(value.updatedAt ?? value.createdAt),
  };
}

export function parseChunk(value: unknown): DocumentChunk | null {
  if (!isRecord(value) || typeof value.id !== 'string') return null;
  return {
    id: value.id,
    documentId: str(value.documentId),
    ordinal: num(value.ordinal),
    headingPath: strings(value.headingPath),
    anchor: str(value.anchor),
    text: str(value.text),
    spanStart: optNum(value.spanStart),
    spanEnd: optNum(value.spanEnd),
  };
}

/** POST /documents: `{ documents: [...] }`, `{ items: [...] }` or a bare list, with rejections if any. */
export function parseUploadResult(json: unknown): UploadResult | null {
  const list = Array.isArray(json)
    ? json
    : isRecord(json) && Array.isArray(json.documents)
      ? json.documents
      : isRecord(json) && Array.isArray(json.items)
        ? json.items
        : isRecord(json) && typeof json.id === 'string'
          ? [json]
          : null;
  if (!list) return null;
  const documents = list.filter(isRecord).flatMap((row) => {
    const id = optStr(row.id ?? row.documentId);
    if (!id) return [];
    return [
      {
        id,
        title: str(row.title) || str(row.sourceName) || str(row.filename) || 'Untitled document',
        status: parseDocumentStatus(row.status) ?? 'queued',
        jobId: optStr(row.jobId),
        duplicate: row.duplicate === true || row.existing === true,
      },
    ];
  });
  const rejectedRaw = isRecord(json) && Array.isArray(json.rejected) ? json.rejected : [];
  const rejected = rejectedRaw.filter(isRecord).map((row) => ({
    filename: str(row.filename ?? row.name, 'a file'),
    message: str(row.message ?? row.reason ?? row.error, 'The server did not accept this file.'),
  }));
  return { documents, rejected };
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
    ): Promise<Page<LuminaDocument>> {
      return http.json(
        ops.listDocuments,
        { query: queryOf(query), signal },
        (body) => parsePage(body, parseDocument),
        'expected a page of documents',
      );
    },

    getDocument(id: string, { signal }: RequestOptions = {}): Promise<LuminaDocument> {
      return http.json(ops.getDocument, { params: { id }, signal }, parseDocument, 'expected a document');
    },

    /** A page of the document's passages; with `chunk` (and no `page`), the page that holds that passage. */
    listChunks(
      id: string,
      query: ListChunksQuery = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<DocumentChunk>> {
      return http.json(
        ops.listChunks,
        { params: { id }, query: queryOf(query), signal },
        (body) => parsePage(body, parseChunk),
        'expected a page of passages',
      );
    },

    /** POST /documents (multipart, field `files`): accepted at once, ingested in the background. */
    uploadDocuments(files: readonly File[], { signal }: RequestOptions = {}): Promise<UploadResult> {
      const form = new FormData();
      for (const file of files) form.append('files', file, file.name);
      return http.json(
        ops.uploadDocuments,
        { body: form, signal },
        parseUploadResult,
        'expected the uploaded documents',
      );
    },

    createTextDocument(
      input: CreateTextDocumentRequest,
      { signal }: RequestOptions = {},
    ): Promise<UploadResult> {
      return http.json(
        ops.createTextDocument,
        { body: input, signal },
        parseUploadResult,
        'expected the new document',
      );
    },

    deleteDocument(id: string, { signal }: RequestOptions = {}): Promise<void> {
      return http.noContent(ops.deleteDocument, { params: { id }, signal });
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
