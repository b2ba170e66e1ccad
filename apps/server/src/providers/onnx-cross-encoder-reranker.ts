import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { batchesByLength, encodeCrossEncoderPair, padCrossEncoderBatch } from '@lumina/rag';
import type { CrossEncoderSpecialTokens, Reranker } from '@lumina/rag';
import { ModelThread } from './model-thread';

/**
 * The thread's code (plain JavaScript): the model's own WordPiece tokenizer (tokenizer.json), which gives
 * each text's word pieces without special tokens; and the ONNX graph on onnxruntime's CPU provider, one
 * padded batch of pairs per run, each row's score its single logit. The pairs are assembled in between on
 * the calling thread (`encodeCrossEncoderPair`: array work only), so the CPU work stays on this thread.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
let tokenizer;
let model;
function loadTokenizer() {
  const { Tokenizer } = require(workerData.tokenizers);
  const config = JSON.parse(readFileSync(join(workerData.dir, 'tokenizer.json'), 'utf8'));
  // The pair is cut and padded by the caller, at the model's own length.
  config.truncation = null;
  config.padding = null;
  const configFile = join(workerData.dir, 'tokenizer_config.json');
  const tokenizerConfig = existsSync(configFile) ? JSON.parse(readFileSync(configFile, 'utf8')) : {};
  const loaded = new Tokenizer(config, tokenizerConfig);
  const cls = loaded.token_to_id('[CLS]');
  const sep = loaded.token_to_id('[SEP]');
  if (cls === undefined || sep === undefined) {
    throw new Error(join(workerData.dir, 'tokenizer.json') + ' has no [CLS] or [SEP]: not a BERT-style tokenizer');
  }
  return { tokenizer: loaded, special: { cls, sep } };
}
async function load() {
  const ort = require(workerData.ort);
  const session = await ort.InferenceSession.create(join(workerData.dir, 'model.onnx'), {
    intraOpNumThreads: workerData.threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  return { ort, session };
}
function tokenize(texts) {
  tokenizer ??= loadTokenizer();
  return {
    special: tokenizer.special,
    pieces: texts.map((text) => tokenizer.tokenizer.encode(text, { add_special_tokens: false }).ids),
  };
}
async function score({ ort, session }, batches) {
  const total = batches.reduce((sum, batch) => sum + batch.rows, 0);
  const flat = new Float32Array(total);
  let offset = 0;
  for (const { rows, width, ids, mask, typeIds } of batches) {
    const shape = [rows, width];
    const tensor = (values) => new ort.Tensor('int64', BigInt64Array.from(values, (v) => BigInt(v)), shape);
    const feeds = { input_ids: tensor(ids), attention_mask: tensor(mask) };
    if (session.inputNames.includes('token_type_ids')) feeds.token_type_ids = tensor(typeIds);
    const output = await session.run(feeds);
    const logits = output[session.outputNames[0]].data;
    const perRow = logits.length / rows;
    // One logit per row (num_labels 1); a two-label head scores by its second (relevant) label.
    for (let r = 0; r < rows; r++) flat[offset + r] = Number(logits[r * perRow + perRow - 1]);
    offset += rows;
  }
  return flat;
}
parentPort.on('message', async ({ id, texts, batches }) => {
  try {
    if (texts) {
      parentPort.postMessage({ id, result: tokenize(texts) });
      return;
    }
    // A failed load is forgotten so that the next request tries again.
    model ??= load().catch((error) => { model = undefined; throw error; });
    const flat = await score(await model, batches);
    parentPort.postMessage({ id, flat }, [flat.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? (error.stack || error.message) : String(error) });
  }
});
`;

/** Word pieces a pair may hold in all (BERT's position table). */
export const CROSS_ENCODER_MAX_TOKENS = 512;

export interface OnnxCrossEncoderOptions {
  /** A folder with the model's `model.onnx` and `tokenizer.json` (and `tokenizer_config.json` if it has one). */
  readonly dir: string;
  /** onnxruntime's threads for one batch. */
  readonly threads?: number;
  /**
   * Pairs per run of the graph (sorted by length first). One is cheapest on this CPU build: 2.8 s against
   * 3.8 s (median) for a SciFact query's 30 passages on a graph of MiniLM-L6's shape in runs of 8, where the
   * padding and the bigger activations cost more than a run's overhead.
   */
  readonly batchSize?: number;
  readonly maxTokens?: number;
}

/** What /health and the logs say of the loaded model. */
export interface CrossEncoderStatus {
  readonly model: string;
  readonly sha256: string | null;
  readonly loadMs: number | null;
}

/** The thread's answer to `{ texts }`: each text's word pieces, and the tokenizer's [CLS] and [SEP]. */
interface TokenizedTexts {
  readonly special: CrossEncoderSpecialTokens;
  readonly pieces: number[][];
}

const threads = new Map<string, ModelThread>();

/**
 * A cross-encoder (a BERT-style sequence-classification model with one relevance logit, such as the MS
 * MARCO MiniLM cross-encoders) exported to ONNX, run in process by onnxruntime on a thread of its own:
 * the query and each passage are read together, and the logit is the passage's score. No Python and no
 * download at run time; the files load once, on first use.
 */
export class OnnxCrossEncoderReranker implements Reranker {
  readonly modelId: string;
  private readonly dir: string;
  private readonly thread: ModelThread;
  private readonly batchSize: number;
  private readonly maxTokens: number;
  /** The first rerank, loading the tokenizer and the graph included. */
  private loadMs: number | null = null;
  private sha256: string | null = null;

  constructor(options: OnnxCrossEncoderOptions) {
    this.dir = resolve(options.dir);
    this.modelId = `cross-encoder:${basename(this.dir)}`;
    this.batchSize = options.batchSize ?? 1;
    this.maxTokens = options.maxTokens ?? CROSS_ENCODER_MAX_TOKENS;
    const threadCount = options.threads ?? 1;
    const key = `${this.dir}|${threadCount}`;
    let thread = threads.get(key);
    if (!thread) {
      thread = new ModelThread({
        source: WORKER_SOURCE,
        workerData: {
          ort: require.resolve('onnxruntime-node'),
          tokenizers: require.resolve('@huggingface/tokenizers'),
          dir: this.dir,
          threads: threadCount,
        },
        dimension: 1,
        label: `the ${this.modelId} reranker`,
      });
      threads.set(key, thread);
    }
    this.thread = thread;
  }

  status(): CrossEncoderStatus {
    return { model: this.modelId, sha256: this.sha256, loadMs: this.loadMs };
  }

  async rerank(query: string, passages: string[], signal: AbortSignal): Promise<number[]> {
    if (passages.length === 0) return [];
    signal.throwIfAborted();
    const started = performance.now();
    const first = this.loadMs === null;
    // A passage past the window is read by its beginning; cut the text first so a long one costs little.
    const maxChars = this.maxTokens * 8;
    const { special, pieces } = await this.thread.call<TokenizedTexts>({
      texts: [query, ...passages.map((passage) => passage.slice(0, maxChars))],
    });
    signal.throwIfAborted();
    const [queryPieces, ...passagePieces] = pieces;
    const pairs = passagePieces.map((ids) =>
      encodeCrossEncoderPair(queryPieces, ids, this.maxTokens, special),
    );
    const batches = batchesByLength(
      pairs.map((pair) => pair.ids.length),
      this.batchSize,
    );
    const rows = await this.thread.request({
      batches: batches.map((batch) => {
        const padded = padCrossEncoderBatch(batch.map((index) => pairs[index]));
        return { rows: batch.length, ...padded };
      }),
    });
    signal.throwIfAborted();
    const scores = new Array<number>(passages.length);
    batches.flat().forEach((index, row) => {
      scores[index] = rows[row][0];
    });
    if (first && this.loadMs === null) {
      this.loadMs = Math.round(performance.now() - started);
      this.sha256 = await fileSha256(join(this.dir, 'model.onnx'));
    }
    return scores;
  }
}

async function fileSha256(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}
