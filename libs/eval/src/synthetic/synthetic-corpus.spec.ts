import { exactTopK } from './exact-search';
import { chunkIndexOf, chunkUuid, generateSyntheticCorpus, vectorOf } from './synthetic-corpus';
import { SeededRandom } from './seeded-random';
import { ZipfSampler } from './zipf-sampler';

describe('generateSyntheticCorpus', () => {
  const corpus = generateSyntheticCorpus({ chunks: 3000, dimension: 64, queries: 40, seed: 11 });

  it('is deterministic for a seed and different for another', () => {
    const again = generateSyntheticCorpus({ chunks: 3000, dimension: 64, queries: 40, seed: 11 });
    expect(again.texts).toEqual(corpus.texts);
    expect(again.vectors).toEqual(corpus.vectors);
    const other = generateSyntheticCorpus({ chunks: 3000, dimension: 64, queries: 40, seed: 12 });
    expect(other.texts[0]).not.toEqual(corpus.texts[0]);
  });

  it('makes unit vectors, chunks grouped into documents with ordinals and spans', () => {
    for (let i = 0; i < 3000; i += 97) {
      const norm = Math.hypot(...vectorOf(corpus, i));
      expect(norm).toBeCloseTo(1, 5);
    }
    const total = corpus.documents.reduce((sum, d) => sum + d.chunkCount, 0);
    expect(total).toBe(3000);
    for (const document of corpus.documents.slice(0, 20)) {
      for (let o = 0; o < document.chunkCount; o++) {
        expect(corpus.chunkOrdinal[document.firstChunk + o]).toBe(o);
        expect(corpus.chunkDocument[document.firstChunk + o]).toBe(corpus.documents.indexOf(document));
      }
    }
    expect(chunkIndexOf(chunkUuid(2999))).toBe(2999);
  });

  it('draws words with a Zipfian head: the most frequent word far ahead, a long tail of rare ones', () => {
    const counts = new Map<string, number>();
    for (const text of corpus.texts) {
      for (const word of text.toLowerCase().match(/[a-z]+/g) ?? [])
        counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    const sorted = [...counts.values()].sort((a, b) => b - a);
    expect(sorted[0] / sorted[9]).toBeGreaterThan(4); // rank 1 vs rank 10 under s ≈ 1 (plus topic words)
    expect(sorted.filter((n) => n === 1).length).toBeGreaterThan(counts.size / 5); // hapaxes
  });

  it('puts a query near its own document, among a crowd of similar chunks', () => {
    let ownDocument = 0;
    for (const query of corpus.queries) {
      const top = exactTopK(corpus.vectors, corpus.dimension, query.vector, 10);
      if (top.some((hit) => corpus.chunkDocument[hit.index] === query.document)) ownDocument++;
      // Not trivially separated: the 10th neighbour is nearly as close as the 1st.
      expect(top[0].score - top[9].score).toBeLessThan(0.5);
    }
    expect(ownDocument).toBeGreaterThan(corpus.queries.length * 0.8);
  });
});

describe('ZipfSampler', () => {
  it('samples ranks in proportion to 1/(r+1)^s', () => {
    const zipf = new ZipfSampler(1000, 1);
    const random = new SeededRandom(3);
    const counts = new Array<number>(1000).fill(0);
    for (let i = 0; i < 200_000; i++) counts[zipf.sample(random)]++;
    expect(counts[0] / 200_000).toBeCloseTo(zipf.probability(0), 2);
    expect(counts[0] / counts[1]).toBeCloseTo(2, 0);
    expect(counts[0] / counts[9]).toBeGreaterThan(7);
  });
});
