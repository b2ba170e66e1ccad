import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ChunkView, DocumentDetail, DocumentStatus, DocumentView, Page } from '@lumina/shared';
import { DataSource } from 'typeorm';
import type { ListDocumentsQueryDto } from './dtos/list-documents-query.dto';
import type { ListChunksQueryDto } from './dtos/list-chunks-query.dto';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import type { PageWindow } from '../../common/pagination/pagination';
import { CHUNK_POSITION_SQL } from './repositories/chunk-position.sql';
import { IngestionQueue } from './ingestion-queue.service';
import { isIngestionProgress } from './ingestion-progress';

export interface DocumentRow {
  id: string;
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
}

const DOCUMENT_COLUMNS = `id, title, source_name, mime_type, metadata->>'format' AS format, external_id, status, error,
  chunk_count, byte_size, language, content_hash, created_at, updated_at`;

const WORKING: readonly DocumentStatus[] = ['queued', 'parsing', 'chunking', 'embedding'];

/** Reading the documents: lists, one document with its live progress, its chunks. */
@Injectable()
export class DocumentCatalogService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: IngestionQueue,
  ) {}

  async list(query: ListDocumentsQueryDto): Promise<Page<DocumentView>> {
    const window = pageWindow(query);
    const search = query.search?.trim() ? `%${escapeLike(query.search.trim())}%` : null;
    const where = `($1::text IS NULL OR title ILIKE $1 ESCAPE '\\') AND ($2::text IS NULL OR status = $2)`;
    const [{ total }]: { total: number }[] = await this.dataSource.query(
      `SELECT count(*)::int AS total FROM documents WHERE ${where}`,
      [search, query.status ?? null],
    );
    const rows: DocumentRow[] = await this.dataSource.query(
      `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE ${where}
       ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
      [search, query.status ?? null, window.limit, window.offset],
    );
    return pageOf(rows.map(toView), total, window);
  }

  async get(id: string): Promise<DocumentDetail> {
    const row = await this.row(id);
    const jobId = WORKING.includes(row.status) ? IngestionQueue.ingestJobId(row.content_hash) : null;
    const job = jobId ? await this.queue.snapshot(jobId) : null;
    const progress =
      job && isIngestionProgress(job.progress) && job.progress.stage === row.status ? job.progress : null;
    return { ...toView(row), jobId, progress };
  }

  async chunks(id: string, query: ListChunksQueryDto): Promise<Page<ChunkView>> {
    const row = await this.row(id);
    const window = query.chunk ? await this.windowHolding(id, query.chunk, query) : pageWindow(query);
    const chunks: {
      id: string;
      ordinal: number;
      text: string;
      heading_path: string[];
      anchor: string | null;
      span_start: number;
      span_end: number;
      embedding_model: string | null;
      has_embedding: boolean;
    }[] = await this.dataSource.query(
      `SELECT id, ordinal, text, heading_path, anchor, span_start, span_end, embedding_model,
              embedding IS NOT NULL AS has_embedding
       FROM chunks WHERE document_id = $1 ORDER BY ordinal LIMIT $2 OFFSET $3`,
      [id, window.limit, window.offset],
    );
    const [{ total }]: { total: number }[] = await this.dataSource.query(
      `SELECT count(*)::int AS total FROM chunks WHERE document_id = $1`,
      [row.id],
    );
    return pageOf(
      chunks.map((chunk) => ({
        id: chunk.id,
        ordinal: chunk.ordinal,
        text: chunk.text,
        headingPath: chunk.heading_path,
        anchor: chunk.anchor,
        spanStart: chunk.span_start,
        spanEnd: chunk.span_end,
        embeddingModel: chunk.embedding_model,
        hasEmbedding: chunk.has_embedding,
      })),
      total,
      window,
    );
  }

  /** The page (of `limit` chunks) that holds the chunk; 404 when it is not one of the document's. */
  private async windowHolding(id: string, chunkId: string, query: ListChunksQueryDto): Promise<PageWindow> {
    if (query.page !== undefined) {
      throw new BadRequestException(['give page or chunk, not both: chunk answers the page that holds it']);
    }
    const rows: { before: number }[] = await this.dataSource.query(CHUNK_POSITION_SQL, [id, chunkId]);
    if (rows.length === 0) throw new NotFoundException(`chunk ${chunkId} is not a passage of document ${id}`);
    const { limit } = pageWindow(query);
    return pageWindow({ page: Math.floor(rows[0].before / limit) + 1, limit });
  }

  /** The document's row (with its content hash, for the job id), or 404. */
  async row(id: string): Promise<DocumentRow> {
    const rows: DocumentRow[] = await this.dataSource.query(
      `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = $1`,
      [id],
    );
    if (!rows[0]) throw new NotFoundException(`No document has the id ${id}.`);
    return rows[0];
  }
}

function toView(row: DocumentRow): DocumentView {
  return {
    id: row.id,
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
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
