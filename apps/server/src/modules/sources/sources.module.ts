import { Module } from '@nestjs/common';
import { CollectionsCoreModule } from '../collections/collections-core.module';
import { SourceRepository } from './repositories/source.repository';
import { SourceQueue } from './source-queue.service';
import { SourceScheduler } from './source-scheduler.service';
import { SourceService } from './source.service';
import { SourcesController } from './sources.controller';

/** The sources API and their schedule. The syncs run in SourceWorkersModule. */
@Module({
  imports: [CollectionsCoreModule],
  controllers: [SourcesController],
  providers: [SourceService, SourceRepository, SourceQueue, SourceScheduler],
})
export class SourcesModule {}
