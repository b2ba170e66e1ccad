import { createAnchorAllocator, slugify } from './anchor';

describe('slugify', () => {
  it('lowercases and collapses runs of other characters into single dashes', () => {
    expect(slugify('Runbooks Database Failover')).toBe('runbooks-database-failover');
    expect(slugify('  What is RAG?! (v2.0)  ')).toBe('what-is-rag-v2-0');
    expect(slugify('a -- b__c')).toBe('a-b-c');
  });

  it('keeps non-Latin letters and digits', () => {
    expect(slugify('Über Café 2')).toBe('über-café-2');
    expect(slugify('データベース 設定')).toBe('データベース-設定');
  });

  it('is empty when there is nothing to keep', () => {
    expect(slugify('!!! ---')).toBe('');
  });
});

describe('createAnchorAllocator', () => {
  it('slugs the whole heading path', () => {
    const allocate = createAnchorAllocator();
    expect(allocate(['Runbooks', 'Database', 'Failover'])).toBe('runbooks-database-failover');
  });

  it('suffixes repeated anchors with -2, -3', () => {
    const allocate = createAnchorAllocator();
    expect([allocate(['FAQ']), allocate(['FAQ']), allocate(['faq']), allocate(['FAQ', 'More'])]).toEqual([
      'faq',
      'faq-2',
      'faq-3',
      'faq-more',
    ]);
  });

  it('never reuses an anchor, even when a title looks like a suffixed one', () => {
    const allocate = createAnchorAllocator();
    const anchors = [
      allocate(['A']),
      allocate(['A']),
      allocate(['A 2']),
      allocate(['A-B']),
      allocate(['A', 'B']),
    ];
    expect(anchors).toEqual(['a', 'a-2', 'a-2-2', 'a-b', 'a-b-2']);
  });

  it('falls back for paths without letters or digits and returns null for no path', () => {
    const allocate = createAnchorAllocator();
    expect(allocate(['???'])).toBe('section');
    expect(allocate(['!!!'])).toBe('section-2');
    expect(allocate([])).toBeNull();
  });

  it('keeps separate allocators independent', () => {
    expect(createAnchorAllocator()(['A'])).toBe('a');
    expect(createAnchorAllocator()(['A'])).toBe('a');
  });
});
