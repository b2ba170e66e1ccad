import { Module } from '@nestjs/common';
import { RerankerCoreModule } from '../reranker/reranker-core.module';
import { RagController } from './rag.controller';
import { RagService } from './rag.service';

@Module({
  imports: [RerankerCoreModule],
  controllers: [RagController],
  providers: [RagService],
  exports: [RagService],
})
export class RagModule {}
