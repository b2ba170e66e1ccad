import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import type { Env } from '../../config/env.schema';
import { QueueName } from '../../jobs/queue-name.enum';
import { configureProcessor } from '../../jobs/worker-options';
import { AppIndexingModule } from '../ingestion/app-indexing.module';
import { SourceSyncProcessor } from './processors/source-sync.processor';
import { SourceRepository } from './repositories/source.repository';
import { SourceSyncService } from './sync/source-sync.service';

/** The sources queue's worker and what a sync needs; imported by worker.ts, and by the API when WORKERS_IN_PROCESS=true. */
@Module({})
export class SourceWorkersModule {
  static forRoot(env: Env): DynamicModule {
    configureProcessor(SourceSyncProcessor, QueueName.Sources, env, {
      concurrency: env.SOURCE_SYNC_CONCURRENCY,
    });
    return {
      module: SourceWorkersModule,
      imports: [AppIndexingModule],
      providers: [SourceSyncProcessor, SourceSyncService, SourceRepository],
    };
  }
}
