import { Inject, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { ChatModel, EmbeddingProvider, LanguageDetector } from '@lumina/rag';
import type { DataSource } from 'typeorm';
import { APP_CONFIG } from '../../config/app-config';
import type { Env } from '../../config/env.schema';
import { SEARCH_DATA_SOURCE } from '../../database/database.module';
import { EMBEDDER, LANGUAGE_DETECTOR, SEARCH_MODEL } from '../../providers/providers.module';
import { llmSearchPorts } from './llm-search-ports';
import { createSearchPorts } from './search-ports.factory';

/**
 * Injection token of the search's ports and options ({ ports, options }, from createSearchPorts): the
 * chunk searches on the read data source, the cached embedder, and expansion and HyDE written by the
 * search model. The API's searches and the evaluation runs inject this one instance, so an evaluated
 * ranking is the app's ranking; each takes the reranker from the registry when it searches.
 */
export const SEARCH_PORTS = Symbol('SEARCH_PORTS');
export const InjectSearchPorts = (): ParameterDecorator => Inject(SEARCH_PORTS);
export type AppSearchPorts = Pick<ReturnType<typeof createSearchPorts>, 'ports' | 'options'>;

@Module({
  providers: [
    {
      provide: SEARCH_PORTS,
      inject: [
        getDataSourceToken(),
        APP_CONFIG,
        EMBEDDER,
        SEARCH_MODEL,
        SEARCH_DATA_SOURCE,
        LANGUAGE_DETECTOR,
      ],
      useFactory: (
        dataSource: DataSource,
        env: Env,
        embedder: EmbeddingProvider,
        model: ChatModel | null,
        searchDataSource: DataSource,
        languages: LanguageDetector,
      ): AppSearchPorts =>
        createSearchPorts(
          dataSource,
          env,
          embedder,
          { ...llmSearchPorts(model, null), languages },
          searchDataSource,
        ),
    },
  ],
  exports: [SEARCH_PORTS],
})
export class SearchPortsModule {}
