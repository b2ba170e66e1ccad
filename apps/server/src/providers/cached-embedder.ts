import { createHash } from 'node:crypto';
import type { EmbeddingProvider } from '@lumina/rag';
import type { DataSource } from 'typeorm';
import { EmbeddingCacheRepository } from './repositories/embedding-cache.repository';

/** Key of a cached vector: sha256 over model id, dimension, max input length and the text. */
export function embeddingCacheKey(provider: EmbeddingProvider, text: string): string {
  return createHash('sha256')
    .update(`${provider.modelId}\u0000${provider.dimension}\u0000${provider.maxInputChars}\u0000${text}`)
    .digest('hex');
}

/**
 * Wraps an embedder with the database cache: a text is embedded once per model, and only the texts
 * missing from the cache reach the model, in batches. Counts what it computed for benchmarks.
 */
export class CachedEmbedder implements EmbeddingProvider {
  readonly modelId: string;
  readonly dimension: number;
  readonly maxInputChars: number;
  readonly queryPrefix?: string;
  readonly stats = { computed: 0, cached: 0 };
  private readonly cache: EmbeddingCacheRepository;

  constructor(
    private readonly inner: EmbeddingProvider,
    dataSource: DataSource,
    private readonly batchSize = 64,
  ) {
    this.cache = new EmbeddingCacheRepository(dataSource.manager);
    this.modelId = inner.modelId;
    this.dimension = inner.dimension;
    this.maxInputChars = inner.maxInputChars;
    this.queryPrefix = inner.queryPrefix;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const keys = texts.map((text) => embeddingCacheKey(this.inner, text));
    const found = await this.cache.find([...new Set(keys)]);
    const missing = [...new Set(keys.filter((key) => !found.has(key)))];
    const textByKey = new Map(keys.map((key, i) => [key, texts[i]]));
    for (let i = 0; i < missing.length; i += this.batchSize) {
      const batchKeys = missing.slice(i, i + this.batchSize);
      const vectors = await this.inner.embed(
        batchKeys.map((key) => textByKey.get(key)!),
        signal,
      );
      await this.cache.store(batchKeys, vectors, this.modelId, this.dimension);
      batchKeys.forEach((key, j) => found.set(key, vectors[j]));
      this.stats.computed += batchKeys.length;
    }
    this.stats.cached += keys.length - missing.length;
    return keys.map((key) => found.get(key)!);
  }
}
