/**
 * How a sentence encoder turns its last hidden state into one vector: `mean` averages the token vectors
 * under the attention mask (sentence-transformers' mean pooling, e.g. all-MiniLM-L6-v2), `cls` takes the
 * first token's vector (the [CLS] pooling of the bge models). Both are then L2-normalised.
 */
export type SentencePooling = 'mean' | 'cls';

/**
 * Pools one text's rows of the hidden state into `out` and L2-normalises it.
 *   hidden  the batch's hidden state, flat: [rows, width, dim]
 *   offset  where this text's first token starts in `hidden` (row * width * dim)
 *   length  this text's tokens (the rest of its row is padding)
 */
export type PoolSentence = (
  hidden: ArrayLike<number>,
  offset: number,
  length: number,
  dim: number,
  pooling: SentencePooling,
  out: Float32Array,
) => void;

/**
 * The pooling as plain JavaScript, because a model thread runs source text (no build step there):
 * `onnx-sentence-embedder.ts` puts it into its thread, and `compilePoolSentence` gives the same source to
 * specs, so what is tested is what runs. A mean over the tokens is proportional to their sum, and the
 * normalisation that follows removes the factor, so `mean` sums.
 */
export const POOL_SENTENCE_SOURCE = `function poolSentence(hidden, offset, length, dim, pooling, out) {
  out.fill(0);
  const tokens = pooling === 'cls' ? Math.min(length, 1) : length;
  for (let t = 0; t < tokens; t++) {
    const start = offset + t * dim;
    for (let d = 0; d < dim; d++) out[d] += hidden[start + d];
  }
  let norm = 0;
  for (let d = 0; d < dim; d++) norm += out[d] * out[d];
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < dim; d++) out[d] /= norm;
}`;

/** `POOL_SENTENCE_SOURCE` as a function (for specs). */
export function compilePoolSentence(): PoolSentence {
  return new Function(`${POOL_SENTENCE_SOURCE}\nreturn poolSentence;`)() as PoolSentence;
}
