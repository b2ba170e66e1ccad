import { rerankScores } from './http-reranker';

describe('rerankScores', () => {
  it('reads the Cohere/Jina shape into scores in the order the documents were given', () => {
    const json = {
      results: [
        { index: 2, relevance_score: 0.9 },
        { index: 0, relevance_score: 0.5 },
        { index: 1, relevance_score: 0.1 },
      ],
    };
    expect(rerankScores(json, 3)).toEqual([0.5, 0.1, 0.9]);
  });

  it('also reads `data` and `score` (and a bare array)', () => {
    expect(
      rerankScores(
        {
          data: [
            { index: 0, score: 2 },
            { index: 1, score: 3 },
          ],
        },
        2,
      ),
    ).toEqual([2, 3]);
    expect(
      rerankScores(
        [
          { index: 1, score: 1 },
          { index: 0, score: 0 },
        ],
        2,
      ),
    ).toEqual([0, 1]);
  });

  it('puts the documents it left out (top_n) below the rest, in their given order', () => {
    const scores = rerankScores({ results: [{ index: 1, relevance_score: 0.3 }] }, 4);
    expect(scores[1]).toBe(0.3);
    expect(scores[0]).toBeLessThan(0.3);
    expect(scores[0]).toBeGreaterThan(scores[2]);
    expect(scores[2]).toBeGreaterThan(scores[3]);
  });

  it('skips out-of-range indexes, repeats and non-numeric scores, and fails when nothing is left', () => {
    const json = {
      results: [
        { index: 5, relevance_score: 1 },
        { index: 0, relevance_score: 'high' },
        { index: 0, relevance_score: 0.2 },
        { index: 0, relevance_score: 0.9 },
      ],
    };
    expect(rerankScores(json, 2)[0]).toBe(0.2);
    expect(() => rerankScores({ results: [{ index: 9, relevance_score: 1 }] }, 2)).toThrow(/scored none/);
    expect(() => rerankScores({ error: 'nope' }, 2)).toThrow(/without results/);
  });
});
