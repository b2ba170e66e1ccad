import { Module } from '@nestjs/common';
import { RerankerCoreModule } from './reranker-core.module';
import { RerankersController } from './rerankers.controller';

/** REST for learned rerankers fitted on question banks. */
@Module({ imports: [RerankerCoreModule], controllers: [RerankersController] })
export class RerankerModule {}
