import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  AnyReranker,
  EmbeddingProvider,
  LanguageDetector,
  SearchOptions,
  SearchPorts,
} from '@lumina/rag';
import { DataSource } from 'typeorm';
import { InjectConfig } from '../../config/app-config';
import type { Env } from '../../config/env.schema';
import { createEmbedder } from '../../providers/create-embedder';
import { InjectLanguageDetector } from '../../providers/providers.module';
import { createEvalSearch } from './eval-search';
import type { EvalSearch } from './eval-search';
import { llmSearchPortsFromEnv } from './llm-search-ports';
import { createSearchPorts } from './search-ports.factory';

/**
 * The searches of the evaluation commands and benchmarks, over the context's database and environment:
 * the API's ports and options (createSearchPorts), each with the environment's embedder behind its own
 * embedding cache.
 */
@Injectable()
export class EvalSearchFactory {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectConfig() private readonly env: Env,
    @InjectLanguageDetector() private readonly languages: LanguageDetector,
  ) {}

  /**
   * The eval search with explicit option overrides; `embedder` shares a cache (and its counts) between
   * searches; `reranker` replaces the one the environment configures.
   */
  create(
    overrides: Partial<SearchOptions> = {},
    embedder?: EmbeddingProvider,
    reranker?: AnyReranker,
  ): EvalSearch {
    return createEvalSearch(
      this.dataSource,
      this.env,
      embedder ?? createEmbedder(this.env),
      overrides,
      reranker,
      this.languages,
    );
  }

  /** The ports and options themselves, with these LLM ports (default: the ones the environment configures). */
  ports(extra?: Partial<Omit<SearchPorts, 'chunks' | 'embedder'>>): ReturnType<typeof createSearchPorts> {
    return createSearchPorts(this.dataSource, this.env, createEmbedder(this.env), {
      ...(extra ?? llmSearchPortsFromEnv(this.env)),
      languages: this.languages,
    });
  }
}
