/**
 * The input of a BERT-style cross-encoder (a sequence-classification model with one output, such as the
 * MS MARCO cross-encoders): the query and a passage read together as `[CLS] query [SEP] passage [SEP]`,
 * the query's pieces of token type 0 and the passage's of type 1, as Hugging Face tokenizers build a pair.
 */
export interface CrossEncoderPair {
  readonly ids: number[];
  readonly typeIds: number[];
}

export interface CrossEncoderSpecialTokens {
  readonly cls: number;
  readonly sep: number;
}

/**
 * Builds one pair from the word pieces of the query and of the passage (without special tokens), cut to
 * `maxTokens` in all as the tokenizers' `longest_first` cuts a pair: the longer side loses its last pieces
 * first, so a short query is kept whole and the passage is read from its beginning.
 */
export function encodeCrossEncoderPair(
  query: readonly number[],
  passage: readonly number[],
  maxTokens: number,
  special: CrossEncoderSpecialTokens,
): CrossEncoderPair {
  const budget = maxTokens - 3;
  if (budget < 2) throw new Error(`a cross-encoder pair needs at least 5 tokens, got ${maxTokens}`);
  let queryKept = query.length;
  let passageKept = passage.length;
  if (queryKept + passageKept > budget) {
    const half = Math.floor(budget / 2);
    if (queryKept <= half) passageKept = budget - queryKept;
    else if (passageKept <= half) queryKept = budget - passageKept;
    else {
      queryKept = half;
      passageKept = budget - half;
    }
  }
  const ids = [
    special.cls,
    ...query.slice(0, queryKept),
    special.sep,
    ...passage.slice(0, passageKept),
    special.sep,
  ];
  const typeIds = ids.map((_, i) => (i < queryKept + 2 ? 0 : 1));
  return { ids, typeIds };
}

/**
 * The pairs' indexes in runs of at most `batchSize`, shortest first, so that a short passage never pays
 * for a long one's padding.
 */
export function batchesByLength(lengths: readonly number[], batchSize: number): number[][] {
  const size = Math.max(1, Math.floor(batchSize));
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a] - lengths[b] || a - b);
  const batches: number[][] = [];
  for (let start = 0; start < order.length; start += size) batches.push(order.slice(start, start + size));
  return batches;
}

/**
 * One padded batch as the graph takes it: row-major ids, attention mask and token types, `width` the
 * longest row (padding id 0, mask 0).
 */
export function padCrossEncoderBatch(pairs: readonly CrossEncoderPair[]): {
  ids: number[];
  mask: number[];
  typeIds: number[];
  width: number;
} {
  const width = Math.max(0, ...pairs.map((pair) => pair.ids.length));
  const ids = new Array<number>(pairs.length * width).fill(0);
  const mask = new Array<number>(pairs.length * width).fill(0);
  const typeIds = new Array<number>(pairs.length * width).fill(0);
  pairs.forEach((pair, row) => {
    pair.ids.forEach((id, t) => {
      ids[row * width + t] = id;
      mask[row * width + t] = 1;
      typeIds[row * width + t] = pair.typeIds[t];
    });
  });
  return { ids, mask, typeIds, width };
}
