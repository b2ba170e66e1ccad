import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { searchKnowledge } from '@lumina/rag';
import type { SearchOptions, SearchPorts, SearchResult } from '@lumina/rag';
import type { SearchSettings } from '@lumina/shared';
import { DataSource } from 'typeorm';
import { InjectConfig } from '../../config/app-config';
import type { Env } from '../../config/env.schema';
import type { CachedEmbedder } from '../../providers/cached-embedder';
import { InjectEmbedder } from '../../providers/providers.module';
import { createSearchPorts } from './search-ports.factory';

/** Wires the search pipeline of libs/rag to the database and the configured models. */
@Injectable()
export class RagService {
  private readonly ports: SearchPorts;
  private readonly options: Partial<SearchOptions>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @InjectConfig() env: Env,
    @InjectEmbedder() embedder: CachedEmbedder,
  ) {
    const search = createSearchPorts(dataSource, env, embedder);
    this.ports = search.ports;
    this.options = search.options;
  }

  async search(
    query: string,
    settings: Partial<SearchSettings> = {},
    signal?: AbortSignal,
  ): Promise<SearchResult> {
    const text = query.trim();
    if (!text) throw new BadRequestException('query must contain words, not only spaces');
    return searchKnowledge(text, settings, this.ports, this.options, signal);
  }
}
