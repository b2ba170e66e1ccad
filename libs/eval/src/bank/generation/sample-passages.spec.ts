import { samplePassages } from './sample-passages';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('samplePassages', () => {
  const candidates = [
    ...[0, 1, 2, 3].map((ordinal) => ({
      chunkId: `a${ordinal}`,
      documentId: 'doc-a',
      ordinal,
      text: words(12),
    })),
    ...[0, 1].map((ordinal) => ({ chunkId: `b${ordinal}`, documentId: 'doc-b', ordinal, text: words(12) })),
    { chunkId: 'c0', documentId: 'doc-c', ordinal: 0, text: 'too short' },
    { chunkId: 'c1', documentId: 'doc-c', ordinal: 1, text: words(20) },
  ];

  it('is deterministic for a seed, whatever order the candidates come in', () => {
    const first = samplePassages(candidates, 5, 'seed-1');
    expect(samplePassages([...candidates].reverse(), 5, 'seed-1')).toEqual(first);
    const others = new Set(
      ['seed-2', 'seed-3', 'seed-4'].map((seed) =>
        samplePassages(candidates, 5, seed)
          .map((c) => c.chunkId)
          .join(),
      ),
    );
    expect(others.size).toBeGreaterThan(1);
  });

  it('takes one passage from every document before a second from any, long passages first', () => {
    const drawn = samplePassages(candidates, 3, 'seed-1');
    expect(drawn.map((c) => c.documentId)).toEqual(['doc-a', 'doc-b', 'doc-c']);
    expect(drawn[2].chunkId).toBe('c1');
  });

  it('draws each passage at most once and stops when they run out', () => {
    const drawn = samplePassages(candidates, 50, 'seed-1');
    expect(drawn).toHaveLength(candidates.length);
    expect(new Set(drawn.map((c) => c.chunkId)).size).toBe(candidates.length);
    const ids = drawn.map((c) => c.chunkId);
    expect(ids.indexOf('c0')).toBeGreaterThan(ids.indexOf('c1'));
  });
});
