import { batchesByLength, encodeCrossEncoderPair, padCrossEncoderBatch } from './cross-encoder-input';

const SPECIAL = { cls: 101, sep: 102 };
const pieces = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe('encodeCrossEncoderPair', () => {
  it('reads [CLS] query [SEP] passage [SEP], the query of token type 0 and the passage of type 1', () => {
    expect(encodeCrossEncoderPair([7, 8], [20, 21, 22], 512, SPECIAL)).toEqual({
      ids: [101, 7, 8, 102, 20, 21, 22, 102],
      typeIds: [0, 0, 0, 0, 1, 1, 1, 1],
    });
  });

  it('cuts the end of a long passage and keeps a short query whole (longest_first)', () => {
    const pair = encodeCrossEncoderPair(pieces(1000, 9), pieces(2000, 600), 512, SPECIAL);
    expect(pair.ids).toHaveLength(512);
    expect(pair.ids.slice(0, 11)).toEqual([101, ...pieces(1000, 9), 102]);
    expect(pair.ids.slice(11, -1)).toEqual(pieces(2000, 500));
    expect(pair.ids.at(-1)).toBe(102);
    expect(pair.typeIds.filter((type) => type === 0)).toHaveLength(11);
  });

  it('cuts both sides to half the window when both are long, and a long query against a short passage', () => {
    const both = encodeCrossEncoderPair(pieces(1000, 400), pieces(2000, 400), 512, SPECIAL);
    expect(both.ids).toHaveLength(512);
    expect(both.typeIds.filter((type) => type === 0)).toHaveLength(254 + 2);
    const longQuery = encodeCrossEncoderPair(pieces(1000, 600), pieces(2000, 10), 512, SPECIAL);
    expect(longQuery.ids.slice(-12)).toEqual([102, ...pieces(2000, 10), 102]);
    expect(longQuery.ids).toHaveLength(512);
  });

  it('reads an empty passage as [CLS] query [SEP] [SEP], and refuses a window too small for a pair', () => {
    expect(encodeCrossEncoderPair([5], [], 512, SPECIAL).ids).toEqual([101, 5, 102, 102]);
    expect(() => encodeCrossEncoderPair([5], [6], 4, SPECIAL)).toThrow(/at least 5 tokens/);
  });
});

describe('batchesByLength', () => {
  it('groups the indexes shortest first, ties in the given order', () => {
    expect(batchesByLength([30, 5, 12, 5, 40], 2)).toEqual([[1, 3], [2, 0], [4]]);
    expect(batchesByLength([], 8)).toEqual([]);
    expect(batchesByLength([3, 1], 0)).toEqual([[1], [0]]);
  });
});

describe('padCrossEncoderBatch', () => {
  it('pads every row to the longest with id 0 and mask 0', () => {
    const padded = padCrossEncoderBatch([
      { ids: [101, 7, 102, 9, 102], typeIds: [0, 0, 0, 1, 1] },
      { ids: [101, 7, 102, 102], typeIds: [0, 0, 0, 1] },
    ]);
    expect(padded.width).toBe(5);
    expect(padded.ids).toEqual([101, 7, 102, 9, 102, 101, 7, 102, 102, 0]);
    expect(padded.mask).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
    expect(padded.typeIds).toEqual([0, 0, 0, 1, 1, 0, 0, 0, 1, 0]);
  });
});
