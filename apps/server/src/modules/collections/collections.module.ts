import { Module } from '@nestjs/common';
import { IngestionModule } from '../ingestion/ingestion.module';
import { CollectionService } from './collection.service';
import { CollectionsController } from './collections.controller';
import { CollectionsCoreModule } from './collections-core.module';
import { DocumentMoveController } from './document-move.controller';
import { DocumentMoveService } from './document-move.service';
import { DocumentMoveRepository } from './repositories/document-move.repository';

/** REST for collections, and moving a document from one collection to another. */
@Module({
  imports: [CollectionsCoreModule, IngestionModule],
  controllers: [CollectionsController, DocumentMoveController],
  providers: [CollectionService, DocumentMoveService, DocumentMoveRepository],
})
export class CollectionsModule {}
