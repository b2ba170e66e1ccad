import { beirSubset } from './beir-subset';
import type { BeirDataset } from './load-beir-dataset';

function dataset(): BeirDataset {
  const corpus = new Map(
    Array.from({ length: 20 }, (_, i) => [`d${i}`, { id: `d${i}`, title: `T${i}`, text: `text ${i}` }]),
  );
  return {
    dir: 'x',
    split: 'test',
    corpus,
    queries: new Map([
      ['q1', 'one'],
      ['q2', 'two (no judgments)'],
      ['q3', 'three'],
      ['q4', 'four'],
    ]),
    qrels: new Map([
      ['q1', new Map([['d1', 1]])],
      [
        'q3',
        new Map([
          ['d3', 1],
          ['d4', 0],
        ]),
      ],
      ['q4', new Map([['d9', 2]])],
    ]),
  };
}

describe('beirSubset', () => {
  it('keeps the first N judged queries, every judged document and N seeded distractors', () => {
    const subset = beirSubset(dataset(), { queries: 2, distractors: 5, seed: 7 });
    expect([...subset.queries.keys()]).toEqual(['q1', 'q3']);
    expect([...subset.qrels.keys()]).toEqual(['q1', 'q3']);
    for (const id of ['d1', 'd3', 'd4']) expect(subset.corpus.has(id)).toBe(true);
    expect(subset.corpus.size).toBe(3 + 5);
  });

  it('is the same subset for the same seed and a different one for another seed', () => {
    const a = [...beirSubset(dataset(), { queries: 2, distractors: 5, seed: 7 }).corpus.keys()];
    const b = [...beirSubset(dataset(), { queries: 2, distractors: 5, seed: 7 }).corpus.keys()];
    const c = [...beirSubset(dataset(), { queries: 2, distractors: 5, seed: 8 }).corpus.keys()];
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
  });

  it('takes every remaining document when fewer than asked remain', () => {
    const subset = beirSubset(dataset(), { queries: 3, distractors: 100, seed: 1 });
    expect(subset.corpus.size).toBe(20);
  });
});
