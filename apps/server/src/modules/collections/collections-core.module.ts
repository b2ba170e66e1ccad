import { Module } from '@nestjs/common';
import { CollectionScope } from './collection-scope.service';
import { CollectionRepository } from './repositories/collection.repository';

/** Collections without HTTP: which collections a request may read or write. */
@Module({
  providers: [CollectionRepository, CollectionScope],
  exports: [CollectionRepository, CollectionScope],
})
export class CollectionsCoreModule {}
