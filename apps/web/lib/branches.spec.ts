import { parseBranch, timingLabel } from './branches';

describe('parseBranch', () => {
  it.each([
    ['original:bm25', 'original', null, 'Original query · BM25'],
    ['original:dense', 'original', null, 'Original query · dense'],
    ['variant-2:bm25', 'variant', 2, 'Variant 2 · BM25'],
    ['hyde:dense', 'hyde', null, 'HyDE · dense'],
    ['bm25', 'original', null, 'Original query · BM25'],
    ['rerank', 'other', null, 'rerank'],
  ])('%s', (branch, kind, variant, label) => {
    expect(parseBranch(branch)).toMatchObject({ kind, variant, label });
  });

  it('names timing keys', () => {
    expect(timingLabel('branch:variant-1:bm25')).toBe('Variant 1 · BM25');
    expect(timingLabel('search')).toBe('Search');
    expect(timingLabel('custom')).toBe('custom');
  });
});
