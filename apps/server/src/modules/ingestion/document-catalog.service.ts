import { Injectable } from '@nestjs/common';
import type {
  ChunkView,
  DocumentDetail,
  DocumentStatus,
  DocumentView,
  Page,
  PassageView,
} from '@lumina/shared';
import type { ListChunksQuery, ListDocumentsQuery } from '@lumina/shared';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import type { PageWindow } from '../../common/pagination/pagination';
import { ChunkRepository } from './repositories/chunk.repository';
import type { ChunkRow } from './repositories/chunk.repository';
import { DocumentRepository } from './repositories/document.repository';
import type { DocumentRow } from './repositories/document.repository';
import { IngestionQueue } from './ingestion-queue.service';
import { isIngestionProgress } from './ingestion-progress';
import { InvalidRequestError, NotFoundError } from '../../common/errors/domain-errors';
import { canRead, readableIds } from '../auth/principal';
import type { CollectionAccess } from '../auth/principal';
import { CollectionScope } from '../collections/collection-scope.service';

const WORKING: readonly DocumentStatus[] = ['queued', 'parsing', 'chunking', 'embedding'];

/** Reading the documents: lists, one document with its live progress, its chunks, one passage. */
@Injectable()
export class DocumentCatalogService {
  constructor(
    private readonly documents: DocumentRepository,
    private readonly chunkRows: ChunkRepository,
    private readonly queue: IngestionQueue,
    private readonly collections: CollectionScope,
  ) {}

  async list(query: ListDocumentsQuery, access: CollectionAccess): Promise<Page<DocumentView>> {
    if (query.collectionId) await this.collections.assertReadable(access, query.collectionId);
    const window = pageWindow(query);
    const search = query.search?.trim() ? `%${escapeLike(query.search.trim())}%` : null;
    const filter = {
      search,
      status: query.status ?? null,
      collectionId: query.collectionId ?? null,
      readable: readableIds(access),
    };
    const total = await this.documents.count(filter);
    const rows = await this.documents.page(filter, window.offset, window.limit);
    return pageOf(rows.map(toView), total, window);
  }

  /** The document as lists show it, or 404. */
  async view(id: string, access: CollectionAccess): Promise<DocumentView> {
    return toView(await this.row(id, access));
  }

  async get(id: string, access: CollectionAccess): Promise<DocumentDetail> {
    const row = await this.row(id, access);
    const jobId = WORKING.includes(row.status) ? IngestionQueue.ingestJobId(row.id) : null;
    const job = jobId ? await this.queue.snapshot(jobId) : null;
    const progress =
      job && isIngestionProgress(job.progress) && job.progress.stage === row.status ? job.progress : null;
    return { ...toView(row), jobId, progress };
  }

  async chunks(id: string, query: ListChunksQuery, access: CollectionAccess): Promise<Page<ChunkView>> {
    const row = await this.row(id, access);
    const window = query.chunk ? await this.windowHolding(id, query.chunk, query) : pageWindow(query);
    const chunks = await this.chunkRows.page(id, window.offset, window.limit);
    const total = await this.chunkRows.count(row.id);
    return pageOf(chunks.map(toChunkView), total, window);
  }

  /**
   * A passage, its document, and up to `neighbours` passages of that document on each side; 404 when
   * no chunk has the id or its document is in a collection the caller may not read (the same sentence).
   */
  async passage(chunkId: string, neighbours: number, access: CollectionAccess): Promise<PassageView> {
    const found = await this.chunkRows.passage(chunkId);
    if (!found || !canRead(access, found.collection_id)) {
      throw new NotFoundError(`No chunk has the id ${chunkId}.`);
    }
    const around = await this.chunkRows.neighbours(found.document_id, found.ordinal, neighbours);
    return {
      chunk: toChunkView(found),
      document: { id: found.document_id, title: found.document_title, collectionId: found.collection_id },
      before: around.before.map(toChunkView),
      after: around.after.map(toChunkView),
    };
  }

  /** The page (of `limit` chunks) that holds the chunk; 404 when it is not one of the document's. */
  private async windowHolding(id: string, chunkId: string, query: ListChunksQuery): Promise<PageWindow> {
    if (query.page !== undefined) {
      throw new InvalidRequestError(['give page or chunk, not both: chunk answers the page that holds it']);
    }
    const before = await this.chunkRows.position(id, chunkId);
    if (before === null) throw new NotFoundError(`chunk ${chunkId} is not a passage of document ${id}`);
    const { limit } = pageWindow(query);
    return pageWindow({ page: Math.floor(before / limit) + 1, limit });
  }

  /** The document's row, or 404 (also when it is in a collection the caller may not read). */
  async row(id: string, access: CollectionAccess): Promise<DocumentRow> {
    const row = await this.documents.find(id);
    if (!row || !canRead(access, row.collection_id)) throw new NotFoundError(`No document has the id ${id}.`);
    return row;
  }
}

function toView(row: DocumentRow): DocumentView {
  return {
    id: row.id,
    collectionId: row.collection_id,
    title: row.title,
    sourceName: row.source_name,
    mimeType: row.mime_type,
    format: row.format,
    externalId: row.external_id,
    status: row.status,
    error: row.error,
    chunkCount: row.chunk_count,
    byteSize: Number(row.byte_size),
    language: row.language,
    origin: row.origin
      ? {
          sourceId: row.source_id,
          kind: row.origin.kind,
          path: row.origin.path,
          commit: row.origin.commit ?? null,
          url: row.origin.url ?? null,
        }
      : null,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

function toChunkView(chunk: ChunkRow): ChunkView {
  return {
    id: chunk.id,
    ordinal: chunk.ordinal,
    text: chunk.text,
    headingPath: chunk.heading_path,
    anchor: chunk.anchor,
    spanStart: chunk.span_start,
    spanEnd: chunk.span_end,
    embeddingModel: chunk.embedding_model,
    hasEmbedding: chunk.has_embedding,
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
