import { Module } from '@nestjs/common';
import { CollectionsCoreModule } from '../collections/collections-core.module';
import { RerankerCoreModule } from './reranker-core.module';
import { RerankersController } from './rerankers.controller';

/** REST for learned rerankers fitted on question banks. */
@Module({ imports: [RerankerCoreModule, CollectionsCoreModule], controllers: [RerankersController] })
export class RerankerModule {}
