import type { EmbeddingProvider } from '@lumina/rag';

/**
 * The query embedder of the bench: returns the synthetic query's vector (set before each search), so
 * the hybrid search measures retrieval, not a model.
 */
export class BenchQueryEmbedder implements EmbeddingProvider {
  readonly modelId = 'synthetic-bench';
  readonly maxInputChars = 100_000;
  next: ArrayLike<number> | null = null;

  constructor(readonly dimension: number) {}

  async embed(texts: string[]): Promise<number[][]> {
    const vector = this.next;
    if (!vector) throw new Error('BenchQueryEmbedder: no query vector set');
    return texts.map(() => Array.from(vector));
  }
}
