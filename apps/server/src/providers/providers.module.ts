import { Global, Inject, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/app-config';
import type { Env } from '../config/env.schema';
import { CachedEmbedder } from './cached-embedder';
import { createEmbedder } from './create-embedder';

/** Injection token of the configured embedder, wrapped with the database cache (a CachedEmbedder). */
export const EMBEDDER = Symbol('EMBEDDER');
export const InjectEmbedder = (): ParameterDecorator => Inject(EMBEDDER);

/** Adapters that implement libs/rag ports for the rest of the server. */
@Global()
@Module({
  providers: [
    {
      provide: EMBEDDER,
      inject: [APP_CONFIG, getDataSourceToken()],
      useFactory: (env: Env, dataSource: DataSource) =>
        new CachedEmbedder(createEmbedder(env), dataSource, env.EMBEDDINGS_BATCH_SIZE),
    },
  ],
  exports: [EMBEDDER],
})
export class ProvidersModule {}
