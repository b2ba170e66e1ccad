import { Module } from '@nestjs/common';
import { JobEventsModule } from '../../jobs/job-events.module';
import { CollectionsCoreModule } from '../collections/collections-core.module';
import { ChunksController } from './chunks.controller';
import { DocumentCatalogService } from './document-catalog.service';
import { DocumentEventsService } from './document-events.service';
import { IngestionController } from './ingestion.controller';
import { IngestionQueue } from './ingestion-queue.service';
import { IngestionReconciler } from './ingestion-reconciler.service';
import { IngestionService } from './ingestion.service';
import { ChunkRepository } from './repositories/chunk.repository';
import { DocumentRepository } from './repositories/document.repository';
import { EmbedderStateRepository } from './repositories/embedder-state.repository';
import { DocumentUploadInterceptor } from './uploads/document-upload.interceptor';
import { UploadStore } from './uploads/upload-store';

/**
 * The documents API: uploads, lists, progress, deletion, passages by chunk id, and the reconciler that
 * re-queues documents left without a job. The jobs run in IngestionWorkersModule.
 */
@Module({
  imports: [JobEventsModule, CollectionsCoreModule],
  controllers: [IngestionController, ChunksController],
  providers: [
    IngestionService,
    DocumentCatalogService,
    DocumentEventsService,
    IngestionQueue,
    IngestionReconciler,
    DocumentRepository,
    ChunkRepository,
    EmbedderStateRepository,
    UploadStore,
    DocumentUploadInterceptor,
  ],
  exports: [IngestionService, DocumentCatalogService, IngestionReconciler, IngestionQueue],
})
export class IngestionModule {}
