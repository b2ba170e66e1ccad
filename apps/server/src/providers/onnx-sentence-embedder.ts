import { join } from 'node:path';
import { POOL_SENTENCE_SOURCE } from '@lumina/rag';
import type { EmbeddingProvider } from '@lumina/rag';
import type { SentenceEncoderSpec } from './local-models/catalogue';
import { MINILM_L6_V2_INT8 } from './local-models/catalogue';
import { ModelThread } from './model-thread';

/**
 * The thread's code (plain JavaScript): the model's own WordPiece tokenizer (tokenizer.json), the ONNX
 * graph on onnxruntime's CPU provider, then the model's pooling (mean over the attention mask, or the
 * [CLS] token) and L2 normalisation, as its sentence-transformers modules do. Texts are sorted by length
 * and run in sub-batches, so a short query never pays for a long passage's padding.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
let model;
async function load() {
  const ort = require(workerData.ort);
  const { Tokenizer } = require(workerData.tokenizers);
  const config = JSON.parse(readFileSync(join(workerData.dir, 'tokenizer.json'), 'utf8'));
  // Truncation is done below, at the model's own length; padding per sub-batch.
  config.truncation = null;
  config.padding = null;
  const tokenizer = new Tokenizer(config, JSON.parse(readFileSync(join(workerData.dir, 'tokenizer_config.json'), 'utf8')));
  const session = await ort.InferenceSession.create(join(workerData.dir, 'model.onnx'), {
    intraOpNumThreads: workerData.threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  return { ort, tokenizer, session };
}
function tokenize(tokenizer, text) {
  const ids = tokenizer.encode(text).ids;
  if (ids.length <= workerData.maxTokens) return ids;
  // Keep [CLS] and the first word pieces, and end with [SEP] as the model was trained.
  return ids.slice(0, workerData.maxTokens - 1).concat(ids[ids.length - 1]);
}
async function embed({ ort, tokenizer, session }, texts) {
  const dim = workerData.dimension;
  const flat = new Float32Array(texts.length * dim);
  const encoded = texts.map((text) => tokenize(tokenizer, text));
  const order = encoded.map((_, i) => i).sort((a, b) => encoded[a].length - encoded[b].length);
  for (let start = 0; start < order.length; start += workerData.batchSize) {
    const rows = order.slice(start, start + workerData.batchSize);
    const width = Math.max(...rows.map((row) => encoded[row].length));
    const ids = new BigInt64Array(rows.length * width);
    const mask = new BigInt64Array(rows.length * width);
    rows.forEach((row, r) => encoded[row].forEach((id, t) => { ids[r * width + t] = BigInt(id); mask[r * width + t] = 1n; }));
    const shape = [rows.length, width];
    const output = await session.run({
      input_ids: new ort.Tensor('int64', ids, shape),
      attention_mask: new ort.Tensor('int64', mask, shape),
      token_type_ids: new ort.Tensor('int64', new BigInt64Array(rows.length * width), shape),
    });
    const hidden = output[session.outputNames[0]].data;
    rows.forEach((row, r) => {
      const vector = flat.subarray(row * dim, (row + 1) * dim);
      poolSentence(hidden, r * width * dim, encoded[row].length, dim, workerData.pooling, vector);
    });
  }
  return flat;
}
${POOL_SENTENCE_SOURCE}
parentPort.on('message', async ({ id, texts }) => {
  try {
    // A failed load is forgotten so that the next request tries again.
    model ??= load().catch((error) => { model = undefined; throw error; });
    const flat = await embed(await model, texts);
    parentPort.postMessage({ id, flat }, [flat.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? (error.stack || error.message) : String(error) });
  }
});
`;

const threads = new Map<string, ModelThread>();

export interface OnnxSentenceEmbedderOptions {
  /** MODELS_DIR: the model's files are in its `<id>/` folder (`lumina-models fetch`). */
  readonly modelsDir: string;
  /** onnxruntime's threads for one batch. */
  readonly threads?: number;
  /**
   * Texts per run of the graph (sorted by length first). One is cheapest on this CPU build: 63–69 ms of
   * CPU per SciFact abstract against 84–113 ms in runs of 8 or 16, where the padding and the bigger
   * activations cost more than a run's overhead.
   */
  readonly batchSize?: number;
}

/**
 * A sentence encoder exported to ONNX (a catalogue entry with `encoder` settings; today all-MiniLM-L6-v2,
 * int8), run in process on the CPU by onnxruntime on a thread of its own. No Python and no download at
 * run time: the files come from MODELS_DIR and load once, on first use.
 */
export class OnnxSentenceEmbedder implements EmbeddingProvider {
  /** The catalogue id: each model's vectors have their own cache keys. */
  readonly modelId: string;
  readonly dimension: number;
  /** Past its word pieces the model sees nothing more; about 4–5 characters make a word piece. */
  readonly maxInputChars: number;
  readonly queryPrefix?: string;
  private readonly thread: ModelThread;

  constructor(
    options: OnnxSentenceEmbedderOptions,
    readonly spec: SentenceEncoderSpec = MINILM_L6_V2_INT8,
  ) {
    const { dimension, maxTokens, pooling, queryPrefix } = spec.encoder;
    this.modelId = spec.id;
    this.dimension = dimension;
    this.maxInputChars = maxTokens * 6;
    if (queryPrefix) this.queryPrefix = queryPrefix;
    const dir = join(options.modelsDir, spec.id);
    const threadCount = options.threads ?? 1;
    const batchSize = options.batchSize ?? 1;
    const key = `${dir}|${threadCount}|${batchSize}`;
    let thread = threads.get(key);
    if (!thread) {
      thread = new ModelThread({
        source: WORKER_SOURCE,
        workerData: {
          ort: require.resolve('onnxruntime-node'),
          tokenizers: require.resolve('@huggingface/tokenizers'),
          dir,
          threads: threadCount,
          batchSize,
          maxTokens,
          pooling,
        },
        dimension: this.dimension,
        label: `the ${spec.id} embedding model`,
      });
      threads.set(key, thread);
    }
    this.thread = thread;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    signal?.throwIfAborted();
    const vectors = await this.thread.embed(texts.map((text) => text.slice(0, this.maxInputChars) || ' '));
    signal?.throwIfAborted();
    return vectors;
  }
}
