import type { EmbeddingProvider } from '../ports/embedding-provider.port';

interface Pending {
  texts: string[];
  resolve(vectors: number[][]): void;
  reject(error: unknown): void;
}

/**
 * Merges the embedding requests of jobs running side by side into shared calls: while one call is in
 * flight, requests queue up and go together in the next one (up to `maxBatch` texts). An ingestion job
 * embeds a document's few chunks at a time; with several jobs at once (INGESTION_CONCURRENCY) the model
 * then sees full batches instead of one or two texts per call. A single caller passes straight through.
 */
export class CoalescingEmbedder implements EmbeddingProvider {
  readonly modelId: string;
  readonly dimension: number;
  readonly maxInputChars: number;
  readonly queryPrefix?: string;
  private queue: Pending[] = [];
  private running = false;

  constructor(
    private readonly inner: EmbeddingProvider,
    private readonly maxBatch: number,
  ) {
    this.modelId = inner.modelId;
    this.dimension = inner.dimension;
    this.maxInputChars = inner.maxInputChars;
    this.queryPrefix = inner.queryPrefix;
  }

  embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    if (texts.length === 0) return Promise.resolve([]);
    signal?.throwIfAborted();
    return new Promise<number[][]>((resolve, reject) => {
      this.queue.push({ texts, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch: Pending[] = [];
        let size = 0;
        while (
          this.queue.length > 0 &&
          (batch.length === 0 || size + this.queue[0].texts.length <= this.maxBatch)
        ) {
          const next = this.queue.shift()!;
          batch.push(next);
          size += next.texts.length;
        }
        try {
          const vectors = await this.inner.embed(batch.flatMap((request) => request.texts));
          let offset = 0;
          for (const request of batch) {
            request.resolve(vectors.slice(offset, offset + request.texts.length));
            offset += request.texts.length;
          }
        } catch (error) {
          for (const request of batch) request.reject(error);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
