import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import type { Env } from '../../config/env.schema';
import { QueueName } from '../../jobs/queue-name.enum';
import { configureProcessor } from '../../jobs/worker-options';
import { CollectionDeletionService } from '../collections/collection-deletion.service';
import { CollectionsCoreModule } from '../collections/collections-core.module';
import { AppIndexingModule } from './app-indexing.module';
import { CollectionDeletionRepository } from '../collections/repositories/collection-deletion.repository';
import { IngestionPipelineService } from './ingestion-pipeline.service';
import { IngestionQueue } from './ingestion-queue.service';
import { IngestionProcessor } from './processors/ingestion.processor';
import { ReembedService } from './reembed.service';
import { EmbedderStateRepository } from './repositories/embedder-state.repository';
import { DocumentRepository } from './repositories/document.repository';
import { UploadStore } from './uploads/upload-store';

/** The ingestion queue's worker (ingestion, re-embedding, collection deletion) and what it needs; imported by worker.ts, and by the API when WORKERS_IN_PROCESS=true. */
@Module({})
export class IngestionWorkersModule {
  static forRoot(env: Env): DynamicModule {
    configureProcessor(IngestionProcessor, QueueName.Ingestion, env, {
      concurrency: env.INGESTION_CONCURRENCY,
    });
    return {
      module: IngestionWorkersModule,
      imports: [CollectionsCoreModule, AppIndexingModule],
      providers: [
        IngestionProcessor,
        IngestionPipelineService,
        ReembedService,
        EmbedderStateRepository,
        DocumentRepository,
        UploadStore,
        IngestionQueue,
        CollectionDeletionService,
        CollectionDeletionRepository,
      ],
    };
  }
}
