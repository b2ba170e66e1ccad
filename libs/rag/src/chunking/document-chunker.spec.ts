import { chunkWholeDocument } from './document-chunker';

describe('chunkWholeDocument', () => {
  it('returns one chunk spanning the trimmed source', () => {
    const source = '\n  # Title\n\nBody text. More text.\n\n';
    expect(chunkWholeDocument('doc', source)).toEqual([
      {
        documentId: 'doc',
        ordinal: 0,
        start: 3,
        end: 33,
        text: '# Title\n\nBody text. More text.',
        headingPath: [],
        anchor: null,
        indexText: '# Title\n\nBody text. More text.',
      },
    ]);
  });

  it('returns no chunk for a blank source', () => {
    expect(chunkWholeDocument('doc', '')).toEqual([]);
    expect(chunkWholeDocument('doc', ' \n ')).toEqual([]);
  });

  it('truncates at the last word boundary within maxChars', () => {
    const source = ' alpha beta gamma';
    const [chunk] = chunkWholeDocument('doc', source, 11);
    expect(chunk.text).toBe('alpha beta');
    expect(source.slice(chunk.start, chunk.end)).toBe(chunk.text);
    expect(chunkWholeDocument('doc', source, 16)[0].text).toBe('alpha beta gamma');
    expect(chunkWholeDocument('doc', source, 15)[0].text).toBe('alpha beta');
  });

  it('cuts a first word longer than maxChars', () => {
    expect(chunkWholeDocument('doc', 'abcdefgh ij', 5)[0].text).toBe('abcde');
  });

  it.each([0, -1, 2.5, NaN])('rejects maxChars %p', (maxChars) => {
    expect(() => chunkWholeDocument('doc', 'text', maxChars)).toThrow(RangeError);
  });
});
