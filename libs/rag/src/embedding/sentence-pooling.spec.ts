import { compilePoolSentence } from './sentence-pooling';

const poolSentence = compilePoolSentence();

/** A batch's hidden state, flat [rows, width, dim], from rows of token vectors (shorter rows padded). */
function hiddenState(rows: number[][][], width: number, dim: number): Float32Array {
  const flat = new Float32Array(rows.length * width * dim).fill(99); // padding that must never be read
  rows.forEach((tokens, r) => tokens.forEach((vector, t) => flat.set(vector, (r * width + t) * dim)));
  return flat;
}

describe('poolSentence (the pooling the model thread runs)', () => {
  const dim = 2;
  const rows = [
    [
      [3, 0],
      [0, 4],
      [3, 4],
    ],
    [
      [0, 2],
      [6, 0],
    ],
  ];
  const hidden = hiddenState(rows, 3, dim);

  it('mean: averages the text tokens only (not the padding), then L2-normalises', () => {
    const out = new Float32Array(dim);
    poolSentence(hidden, 0, 3, dim, 'mean', out);
    // mean (2, 8/3) → normalised (0.6, 0.8)
    expect(Array.from(out)).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    poolSentence(hidden, 3 * dim, 2, dim, 'mean', out);
    // the second row's two tokens, (3, 1): its padded third token (99, 99) is left out
    expect(Array.from(out)).toEqual([
      expect.closeTo(3 / Math.hypot(3, 1), 6),
      expect.closeTo(1 / Math.hypot(3, 1), 6),
    ]);
  });

  it('cls: takes the first token of its own row, whatever follows, then L2-normalises', () => {
    const out = new Float32Array(dim).fill(7); // a reused buffer is overwritten, not added to
    poolSentence(hidden, 0, 3, dim, 'cls', out);
    expect(Array.from(out)).toEqual([1, 0]);
    poolSentence(hidden, 3 * dim, 2, dim, 'cls', out);
    expect(Array.from(out)).toEqual([0, 1]);
  });

  it('leaves a zero vector at zero instead of dividing by zero', () => {
    const out = new Float32Array(dim);
    poolSentence(new Float32Array(4), 0, 2, dim, 'mean', out);
    expect(Array.from(out)).toEqual([0, 0]);
  });
});
