import { splitOnWordBoundaries } from './word-splitter';

function pieces(text: string, maxChars: number, start = 0, end = text.length): string[] {
  return splitOnWordBoundaries(text, start, end, maxChars).map((span) => text.slice(span.start, span.end));
}

describe('splitOnWordBoundaries', () => {
  it('packs as many whole words as fit', () => {
    expect(pieces('aa bb cc dd ee', 5)).toEqual(['aa bb', 'cc dd', 'ee']);
    expect(pieces('aa bb cc dd ee', 4)).toEqual(['aa', 'bb', 'cc', 'dd', 'ee']);
  });

  it('never includes surrounding whitespace', () => {
    expect(splitOnWordBoundaries('  aa \n bb  ', 0, 11, 3)).toEqual([
      { start: 2, end: 4 },
      { start: 7, end: 9 },
    ]);
  });

  it('hard-cuts only words longer than maxChars and keeps packing after the cut', () => {
    expect(pieces('ab abcdefghij c d', 4)).toEqual(['ab', 'abcd', 'efgh', 'ij c', 'd']);
  });

  it('stays within the given range', () => {
    const text = 'xx aa bb cc yy';
    expect(pieces(text, 5, 3, 11)).toEqual(['aa bb', 'cc']);
    expect(pieces(text, 20, 4, 9)).toEqual(['a bb']);
  });

  it('does not tear surrogate pairs when cutting hard', () => {
    const text = 'a😀😀😀';
    const result = pieces(text, 2);
    expect(result).toEqual(['a', '😀', '😀', '😀']);
  });

  it('returns nothing for whitespace', () => {
    expect(pieces('   ', 2)).toEqual([]);
  });
});
