import { dedupeRanking, documentRanking } from './dedupe-ranking';

describe('dedupeRanking', () => {
  it('keeps the first occurrence of each id in order', () => {
    // a b a c b d -> a (pos 1), b (pos 2), c (pos 4), d (pos 6)
    expect(dedupeRanking(['a', 'b', 'a', 'c', 'b', 'd'])).toEqual(['a', 'b', 'c', 'd']);
  });

  it('returns an empty list for an empty ranking and does not mutate its input', () => {
    const input = ['x', 'x'];
    expect(dedupeRanking([])).toEqual([]);
    expect(dedupeRanking(input)).toEqual(['x']);
    expect(input).toEqual(['x', 'x']);
  });
});

describe('documentRanking', () => {
  it('maps chunks to their documents, a document taking the rank of its best chunk', () => {
    // chunks: d2, d1, d2, d3, d1 -> d2 (rank 1), d1 (rank 2), d3 (rank 4 -> 3rd distinct)
    const chunks = [
      { documentId: 'd2', chunkId: 'c9' },
      { documentId: 'd1', chunkId: 'c1' },
      { documentId: 'd2', chunkId: 'c8' },
      { documentId: 'd3', chunkId: 'c4' },
      { documentId: 'd1', chunkId: 'c2' },
    ];
    expect(documentRanking(chunks)).toEqual(['d2', 'd1', 'd3']);
  });
});
