import { Module } from '@nestjs/common';
import { CollectionsCoreModule } from '../collections/collections-core.module';
import { RerankerCoreModule } from '../reranker/reranker-core.module';
import { RagController } from './rag.controller';
import { RagService } from './rag.service';
import { SearchPortsModule } from './search-ports.module';

@Module({
  imports: [CollectionsCoreModule, RerankerCoreModule, SearchPortsModule],
  controllers: [RagController],
  providers: [RagService],
  exports: [RagService],
})
export class RagModule {}
