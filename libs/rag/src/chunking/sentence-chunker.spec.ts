import { chunkBySentences } from './sentence-chunker';
import type { Chunk } from './chunk';

function texts(chunks: Chunk[]): string[] {
  return chunks.map((chunk) => chunk.text);
}

describe('chunkBySentences', () => {
  // Five sentences of five characters each, separated by single spaces: sentence i spans [6i, 6i + 5).
  const fiveSentences = 'Aaaa. Bbbb. Cccc. Dddd. Eeee.';

  it('packs whole sentences greedily up to maxChars', () => {
    const chunks = chunkBySentences('doc', fiveSentences, { maxChars: 17, overlapChars: 0 });
    expect(chunks.map(({ start, end, text }) => ({ start, end, text }))).toEqual([
      { start: 0, end: 17, text: 'Aaaa. Bbbb. Cccc.' },
      { start: 18, end: 29, text: 'Dddd. Eeee.' },
    ]);
  });

  it('fills each chunk exactly to maxChars when possible and not one character more', () => {
    expect(texts(chunkBySentences('doc', fiveSentences, { maxChars: 16, overlapChars: 0 }))).toEqual([
      'Aaaa. Bbbb.',
      'Cccc. Dddd.',
      'Eeee.',
    ]);
  });

  it('repeats the trailing sentence that fits in overlapChars', () => {
    expect(texts(chunkBySentences('doc', fiveSentences, { maxChars: 17, overlapChars: 5 }))).toEqual([
      'Aaaa. Bbbb. Cccc.',
      'Cccc. Dddd. Eeee.',
    ]);
  });

  it('repeats no sentence when the last one alone is longer than overlapChars', () => {
    expect(texts(chunkBySentences('doc', fiveSentences, { maxChars: 17, overlapChars: 4 }))).toEqual([
      'Aaaa. Bbbb. Cccc.',
      'Dddd. Eeee.',
    ]);
  });

  it('measures overlap as the span from the first repeated sentence to the end of the previous chunk', () => {
    // 'Bbbb. Cccc.' is 11 characters including the space between the sentences.
    expect(texts(chunkBySentences('doc', fiveSentences, { maxChars: 17, overlapChars: 11 }))).toEqual([
      'Aaaa. Bbbb. Cccc.',
      'Bbbb. Cccc. Dddd.',
      'Cccc. Dddd. Eeee.',
    ]);
    expect(texts(chunkBySentences('doc', fiveSentences, { maxChars: 17, overlapChars: 10 }))).toEqual([
      'Aaaa. Bbbb. Cccc.',
      'Cccc. Dddd. Eeee.',
    ]);
  });

  it('drops overlap sentences that would leave no room for a new sentence', () => {
    const source = 'Aaaa. Bbbb. Cccc. Ddddddddddd.';
    // After 'Aaaa. Bbbb. Cccc.' the overlap budget allows 'Bbbb. Cccc.', but with the 12-character next
    // sentence that would be 24 > 20 characters, so only 'Cccc.' is kept.
    expect(texts(chunkBySentences('doc', source, { maxChars: 20, overlapChars: 11 }))).toEqual([
      'Aaaa. Bbbb. Cccc.',
      'Cccc. Ddddddddddd.',
    ]);
  });

  it('always makes progress even when the whole previous chunk fits in the overlap budget', () => {
    const source = 'One two. Three four five six seven.';
    const chunks = chunkBySentences('doc', source, { maxChars: 26, overlapChars: 25 });
    expect(texts(chunks)).toEqual(['One two.', 'Three four five six seven.']);
  });

  it('returns a single chunk when everything fits', () => {
    const chunks = chunkBySentences('doc-1', '  Just one. And two.\n', { maxChars: 100, overlapChars: 10 });
    expect(chunks).toEqual([
      {
        documentId: 'doc-1',
        ordinal: 0,
        start: 2,
        end: 20,
        text: 'Just one. And two.',
        headingPath: [],
        anchor: null,
        indexText: 'Just one. And two.',
      },
    ]);
  });

  it('returns no chunks for empty or blank text', () => {
    expect(chunkBySentences('doc', '', { maxChars: 10, overlapChars: 0 })).toEqual([]);
    expect(chunkBySentences('doc', ' \n\n\t ', { maxChars: 10, overlapChars: 0 })).toEqual([]);
  });

  it('numbers chunks from 0', () => {
    const chunks = chunkBySentences('doc', fiveSentences, { maxChars: 5, overlapChars: 0 });
    expect(chunks.map((chunk) => chunk.ordinal)).toEqual([0, 1, 2, 3, 4]);
  });

  it('splits a sentence longer than maxChars on word boundaries only', () => {
    const source = 'Short one. The quick brown fox jumps over the lazy dog again and again. Tail.';
    const chunks = chunkBySentences('doc', source, { maxChars: 20, overlapChars: 0 });
    expect(texts(chunks)).toEqual([
      'Short one.',
      'The quick brown fox',
      'jumps over the lazy',
      'dog again and again.',
      'Tail.',
    ]);
    for (const chunk of chunks) {
      expect(chunk.end - chunk.start).toBeLessThanOrEqual(20);
      expect(source.slice(chunk.start, chunk.end)).toBe(chunk.text);
    }
  });

  it('cuts inside a word only when that word alone exceeds maxChars', () => {
    const chunks = chunkBySentences('doc', 'See abcdefghijklmnopqrstuvwxy now.', {
      maxChars: 10,
      overlapChars: 0,
    });
    expect(texts(chunks)).toEqual(['See', 'abcdefghij', 'klmnopqrst', 'uvwxy now.']);
  });

  it('reports offsets relative to the enclosing document and carries heading context', () => {
    const document = '# Guide\n\nFirst step. Second step.';
    const bodyStart = document.indexOf('First');
    const chunks = chunkBySentences(
      'guide',
      document.slice(bodyStart),
      { maxChars: 12, overlapChars: 0 },
      { offset: bodyStart, headingPath: ['Guide'], anchor: 'guide' },
    );
    expect(chunks).toEqual([
      {
        documentId: 'guide',
        ordinal: 0,
        start: 9,
        end: 20,
        text: 'First step.',
        headingPath: ['Guide'],
        anchor: 'guide',
        indexText: 'Guide\n\nFirst step.',
      },
      {
        documentId: 'guide',
        ordinal: 1,
        start: 21,
        end: 33,
        text: 'Second step.',
        headingPath: ['Guide'],
        anchor: 'guide',
        indexText: 'Guide\n\nSecond step.',
      },
    ]);
    for (const chunk of chunks) expect(document.slice(chunk.start, chunk.end)).toBe(chunk.text);
  });

  it('gives every chunk its own heading path array', () => {
    const headingPath = ['A'];
    const chunks = chunkBySentences(
      'doc',
      fiveSentences,
      { maxChars: 5, overlapChars: 0 },
      {
        offset: 0,
        headingPath,
        anchor: 'a',
      },
    );
    chunks[0].headingPath.push('mutated');
    expect(chunks[1].headingPath).toEqual(['A']);
    expect(headingPath).toEqual(['A']);
  });

  it.each([
    [{ maxChars: 0, overlapChars: 0 }, /maxChars/],
    [{ maxChars: -5, overlapChars: 0 }, /maxChars/],
    [{ maxChars: 10.5, overlapChars: 0 }, /maxChars/],
    [{ maxChars: NaN, overlapChars: 0 }, /maxChars/],
    [{ maxChars: 10, overlapChars: -1 }, /overlapChars/],
    [{ maxChars: 10, overlapChars: 10 }, /overlapChars/],
    [{ maxChars: 10, overlapChars: 11 }, /overlapChars/],
    [{ maxChars: 10, overlapChars: NaN }, /overlapChars/],
  ])('rejects options %p', (options, message) => {
    expect(() => chunkBySentences('doc', 'Text.', options)).toThrow(RangeError);
    expect(() => chunkBySentences('doc', '', options)).toThrow(message);
  });

  it('accepts the smallest valid options', () => {
    expect(texts(chunkBySentences('doc', 'Ab c.', { maxChars: 1, overlapChars: 0 }))).toEqual([
      'A',
      'b',
      'c',
      '.',
    ]);
  });
});
