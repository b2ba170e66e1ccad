import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Post,
  Sse,
  UploadedFiles,
  UseInterceptors,
} from '@nestjs/common';
import type { MessageEvent } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiNotFoundResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import {
  acceptedDocumentSchema,
  acceptedDocumentsSchema,
  chunkViewSchema,
  createTextDocumentRequestSchema,
  documentEventSchema,
  deletedDocumentSchema,
  documentDetailSchema,
  documentViewSchema,
  listChunksQuerySchema,
  listDocumentsQuerySchema,
  pageOf,
  reembedRequestedSchema,
  uploadDocumentsFieldsSchema,
} from '@lumina/shared';
import type {
  CreateTextDocumentRequest,
  ListChunksQuery,
  ListDocumentsQuery,
  AcceptedDocument,
  AcceptedDocuments,
  ChunkView,
  DeletedDocument,
  DocumentDetail,
  DocumentView,
  Page,
  ReembedRequested,
} from '@lumina/shared';
import type { Observable } from 'rxjs';
import { collectionAccess, CurrentPrincipal, Roles } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { DocumentCatalogService } from './document-catalog.service';
import { DocumentEventsService } from './document-events.service';
import {
  contractRef,
  ValidBody,
  ValidEventStream,
  ValidQuery,
  ValidResponse,
  ZodValidationPipe,
} from '../../common/validation/zod-contract';
import { IngestionService } from './ingestion.service';
import { DocumentUploadInterceptor } from './uploads/document-upload.interceptor';
import type { StoredFile } from './uploads/hashing-disk-storage';
import { SUPPORTED_EXTENSIONS } from './uploads/supported-formats';

const uuid = new ParseUUIDPipe();
const QUEUE_UNAVAILABLE_DESCRIPTION = 'The job queue (Redis) is not reachable; nothing was queued';
const COLLECTION_DELETING_DESCRIPTION = 'The collection is being deleted; it takes no new documents';
const documentPage = pageOf(documentViewSchema);
const chunkPage = pageOf(chunkViewSchema);

@ApiTags('documents')
@Controller('documents')
export class IngestionController {
  constructor(
    private readonly ingestion: IngestionService,
    private readonly catalog: DocumentCatalogService,
    private readonly documentEvents: DocumentEventsService,
  ) {}

  @Post()
  @HttpCode(202)
  @UseInterceptors(DocumentUploadInterceptor)
  @ApiOperation({
    summary: 'Upload documents (admin, or a key with a write grant on the collection)',
    description:
      `Files (${SUPPORTED_EXTENSIONS.join(', ')}) are streamed to disk and ingested by background jobs; ` +
      'a .json/.jsonl BEIR corpus becomes one document per entry. They go into the collection `collectionId` ' +
      '(the default one when absent); the same bytes again in that collection return the existing document.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      properties: {
        files: { type: 'array', items: { type: 'string', format: 'binary' } },
        language: {
          type: 'string',
          example: 'zh',
          description: 'ISO 639-1 code of every file (stemming, word segmentation); detected when absent',
        },
        collectionId: {
          type: 'string',
          format: 'uuid',
          description: 'The collection to store the files in; absent: the collection whose slug is "default"',
        },
      },
    },
  })
  @ApiAcceptedResponse({
    description: 'The documents and their ingestion jobs',
    schema: { $ref: contractRef(acceptedDocumentsSchema, 'AcceptedDocuments') },
  })
  @ApiBadRequestResponse({ description: 'No file, a malformed multipart body, or an unknown language code' })
  @ApiPayloadTooLargeResponse({
    description: 'A file above UPLOAD_MAX_BYTES, or more than UPLOAD_MAX_FILES files',
  })
  @ApiUnsupportedMediaTypeResponse({
    description: 'A file type that is not supported (the answer lists them)',
  })
  @ApiUnprocessableEntityResponse({
    description: 'Empty, binary, non-UTF-8 or truncated files, malformed corpora',
  })
  @ApiNotFoundResponse({ description: 'No collection has the collectionId' })
  @ApiConflictResponse({ description: COLLECTION_DELETING_DESCRIPTION })
  @ApiServiceUnavailableResponse({ description: QUEUE_UNAVAILABLE_DESCRIPTION })
  upload(
    @UploadedFiles() files: StoredFile[] | undefined,
    @Body(new ZodValidationPipe(uploadDocumentsFieldsSchema))
    body: { language?: string; collectionId?: string },
    @CurrentPrincipal() principal: Principal,
  ): Promise<AcceptedDocuments> {
    return this.ingestion.acceptUploads(
      collectionAccess(principal),
      files ?? [],
      body.language ?? null,
      body.collectionId,
    );
  }

  @Post('text')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Add a document given as text (JSON title + text, optional format; admin or a write grant)',
  })
  @ApiAcceptedResponse({
    description: 'The document and its ingestion job',
    schema: { $ref: contractRef(acceptedDocumentSchema, 'AcceptedDocument') },
  })
  @ApiBadRequestResponse({ description: 'Missing or empty title or text, or an unknown language code' })
  @ApiNotFoundResponse({ description: 'No collection has the collectionId' })
  @ApiConflictResponse({ description: COLLECTION_DELETING_DESCRIPTION })
  @ApiServiceUnavailableResponse({ description: QUEUE_UNAVAILABLE_DESCRIPTION })
  createText(
    @ValidBody(createTextDocumentRequestSchema, 'CreateTextDocumentRequest') body: CreateTextDocumentRequest,
    @CurrentPrincipal() principal: Principal,
  ): Promise<AcceptedDocument> {
    return this.ingestion.acceptText(collectionAccess(principal), body);
  }

  @Post('reembed')
  @Roles('admin')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Re-embed (admin)',
    description: 'Queue a backfill giving every chunk without a vector of the current embedding model one.',
  })
  @ApiAcceptedResponse({
    description: 'The model, how many chunks lack a vector, and the job (null if none)',
    schema: { $ref: contractRef(reembedRequestedSchema, 'ReembedRequested') },
  })
  reembed(): Promise<ReembedRequested> {
    return this.ingestion.requestReembed();
  }

  @Get()
  @ApiOperation({
    summary: 'List documents (newest first), optionally by collection, title words or status',
  })
  @ValidResponse(documentPage, 'DocumentPage', 'A page of documents: items, page, limit, total, totalPages')
  @ApiBadRequestResponse({ description: 'page or limit below 1, unknown status' })
  list(
    @ValidQuery(listDocumentsQuerySchema) query: ListDocumentsQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<DocumentView>> {
    return this.catalog.list(query, collectionAccess(principal));
  }

  @Get(':id')
  @ApiOperation({ summary: 'A document: status, chunk count, error, and live progress while ingested' })
  @ValidResponse(documentDetailSchema, 'DocumentDetail', 'The document')
  @ApiNotFoundResponse({ description: 'No such document' })
  get(@Param('id', uuid) id: string, @CurrentPrincipal() principal: Principal): Promise<DocumentDetail> {
    return this.catalog.get(id, collectionAccess(principal));
  }

  @Get(':id/chunks')
  @ApiOperation({
    summary: "A page of a document's chunks, in order",
    description:
      'With `chunk=<id>` (and no `page`): the page that holds that chunk, e.g. to open a citation.',
  })
  @ValidResponse(chunkPage, 'ChunkPage', 'A page of chunks')
  @ApiBadRequestResponse({ description: 'chunk is not a UUID, or both page and chunk are given' })
  @ApiNotFoundResponse({ description: 'No such document, or the chunk is not one of its passages' })
  chunks(
    @Param('id', uuid) id: string,
    @ValidQuery(listChunksQuerySchema) query: ListChunksQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<ChunkView>> {
    return this.catalog.chunks(id, query, collectionAccess(principal));
  }

  @Sse(':id/events')
  @ApiOperation({
    summary: 'Live ingestion progress (Server-Sent Events)',
    description:
      'Each event: {status, stage, done, total, attempt}; the stream ends with indexed, failed (with error) or ' +
      'cancelled (deleted).',
  })
  @ValidEventStream({ message: { schema: documentEventSchema, name: 'DocumentEvent' } }, 'The event stream')
  @ApiNotFoundResponse({ description: 'No such document' })
  events(
    @Param('id', uuid) id: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Observable<MessageEvent>> {
    return this.documentEvents.stream(id, collectionAccess(principal));
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a document, its chunks and vectors; cancels its ingestion job (admin or a write grant)',
  })
  @ValidResponse(deletedDocumentSchema, 'DeletedDocument', 'Deleted')
  @ApiNotFoundResponse({ description: 'No such document' })
  remove(@Param('id', uuid) id: string, @CurrentPrincipal() principal: Principal): Promise<DeletedDocument> {
    return this.ingestion.remove(collectionAccess(principal), id);
  }
}
