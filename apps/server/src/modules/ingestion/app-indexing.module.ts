import { Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CoalescingEmbedder } from '@lumina/rag';
import type { EmbeddingProvider } from '@lumina/rag';
import { APP_CONFIG } from '../../config/app-config';
import { envChunking } from '../../config/env-chunking';
import type { Env } from '../../config/env.schema';
import { EMBEDDER } from '../../providers/providers.module';
import { DocumentWorkPool } from './document-work/document-work-pool';
import { IndexingService } from './indexing.service';

/**
 * The app's indexer, for the workers that write documents (uploads and synced sources): the chunking of
 * CHUNK_MAX_CHARS / CHUNK_OVERLAP_CHARS, DEFAULT_LANGUAGE, and the embedder behind one coalescing
 * batcher, so the jobs running side by side in a worker share embedding calls (the cache stays in front);
 * and the one pool of document threads both parse and chunk on, so uploads and source syncs together
 * never run more parsing threads than INGESTION_CONCURRENCY and the cores allow.
 */
@Module({
  providers: [
    {
      provide: IndexingService,
      inject: [getDataSourceToken(), EMBEDDER, APP_CONFIG],
      useFactory: (dataSource: DataSource, embedder: EmbeddingProvider, env: Env) =>
        new IndexingService(
          dataSource,
          new CoalescingEmbedder(embedder, env.EMBEDDINGS_BATCH_SIZE),
          envChunking(env),
          env.EMBEDDINGS_BATCH_SIZE,
          null,
          env.DEFAULT_LANGUAGE ?? null,
        ),
    },
    DocumentWorkPool,
  ],
  exports: [IndexingService, DocumentWorkPool],
})
export class AppIndexingModule {}
