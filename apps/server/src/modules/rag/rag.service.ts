import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { crossLingualWarning, searchKnowledge } from '@lumina/rag';
import type { SearchOptions, SearchPorts, SearchResult, EmbeddingProvider } from '@lumina/rag';
import type { SearchSettings } from '@lumina/shared';
import { DataSource } from 'typeorm';
import { denseLanguagesFor } from './fusion-weights';
import { InjectEmbedder } from '../../providers/providers.module';
import { RerankerRegistry } from '../reranker/reranker-registry.service';
import { corpusLanguages } from './repositories/text-search-configs';
import { InjectSearchPorts } from './search-ports.module';
import type { AppSearchPorts } from './search-ports.module';
import { RequestMetrics } from '../metrics/request-metrics';
import { InvalidRequestError } from '../../common/errors/domain-errors';
import { CollectionScope } from '../collections/collection-scope.service';
import type { SearchScope } from '../collections/collection-scope.service';
import { ALL_COLLECTIONS } from '../auth/principal';
import type { CollectionAccess } from '../auth/principal';

/** Wires the search pipeline of libs/rag to the database and the configured models. */
@Injectable()
export class RagService {
  private readonly logger = new Logger(RagService.name);
  private readonly ports: SearchPorts;
  private readonly options: Partial<SearchOptions>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectEmbedder() private readonly embedder: EmbeddingProvider,
    private readonly rerankers: RerankerRegistry,
    @InjectSearchPorts() search: AppSearchPorts,
    private readonly metrics: RequestMetrics,
    private readonly collections: CollectionScope,
  ) {
    // The reranker is the registry's at each search (a model fitted on a bank may be switched on).
    this.ports = search.ports;
    this.options = search.options;
  }

  /** A search of the collections `collectionIds` names (404 for one that does not exist), or of all. */
  async searchIn(
    access: CollectionAccess,
    collectionIds: readonly string[] | undefined,
    query: string,
    settings: Partial<SearchSettings> = {},
    signal?: AbortSignal,
  ): Promise<SearchResult> {
    if (!query.trim()) throw new InvalidRequestError('query must contain words, not only spaces');
    return this.search(query, settings, signal, await this.collections.searchable(access, collectionIds));
  }

  /** A search of `scope` (resolved by CollectionScope), or of every collection (the server's own work). */
  async search(
    query: string,
    settings: Partial<SearchSettings> = {},
    signal?: AbortSignal,
    scope?: SearchScope,
  ): Promise<SearchResult> {
    const text = query.trim();
    if (!text) throw new InvalidRequestError('query must contain words, not only spaces');
    const searched = scope ?? (await this.collections.searchable(ALL_COLLECTIONS));
    const options: Partial<SearchOptions> = { ...this.options, collectionIds: searched.filter };
    const [result, corpus] = await this.metrics.timeSearch(() =>
      Promise.all([
        searchKnowledge(text, settings, this.portsNow(searched.collectionIds), options, signal),
        // The languages of the searched collections only: another collection's are not the caller's to see.
        corpusLanguages(this.dataSource, searched.filter),
      ]),
    );
    result.collectionIds = searched.collectionIds;
    this.metrics.countCollectionSearch(searched.collectionIds);
    // An encoder trained on some languages only (USE-lite, all-MiniLM-L6-v2: English) crosses none.
    const denseCrosses =
      denseLanguagesFor(this.embedder.modelId) === null && result.settings.ranker !== 'bm25';
    const warning = crossLingualWarning(result.language ?? null, corpus, denseCrosses);
    if (warning) result.warnings.push(warning);
    this.logTrace(result);
    return result;
  }

  /** The search's ports with the reranker that serves `enableRerank` in these collections now. */
  private portsNow(collectionIds: readonly string[]): SearchPorts {
    return { ...this.ports, reranker: this.rerankers.current(collectionIds) ?? undefined };
  }

  /** Generated variants and HyDE passages, and any degraded branch, as structured log lines. */
  private logTrace(result: SearchResult): void {
    if (result.expansions || result.hyde) {
      this.logger.log({
        msg: 'search expansions',
        query: result.query,
        ranker: result.settings.ranker,
        expansions: result.expansions,
        hyde: result.hyde,
        timings: result.timings,
      });
    }
    if (result.warnings.length) {
      this.logger.warn({ msg: 'search degraded', query: result.query, warnings: result.warnings });
    }
  }
}
