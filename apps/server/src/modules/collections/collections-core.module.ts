import { Module } from '@nestjs/common';
import { CollectionScope } from './collection-scope.service';
import { CollectionRepository } from './repositories/collection.repository';
import { WorkTargetRepository } from './repositories/work-target.repository';
import { CollectionWorkGuard } from './collection-work.guard';

/**
 * Collections without HTTP: which collections a request may read or write, and which collection's
 * evaluation work (banks, runs, ablations, rerankers) it may manage.
 */
@Module({
  providers: [CollectionRepository, CollectionScope, WorkTargetRepository, CollectionWorkGuard],
  exports: [CollectionRepository, CollectionScope, WorkTargetRepository, CollectionWorkGuard],
})
export class CollectionsCoreModule {}
