import { selectQueriesWithQrels } from './select-queries-with-qrels';

describe('selectQueriesWithQrels', () => {
  it('keeps queries with a relevant judgment, in queries order', () => {
    const queries = new Map([
      ['q1', 'first'],
      ['q2', 'second'],
      ['q3', 'no judgments'],
      ['q4', 'only zero and negative grades'],
      ['q5', 'fifth'],
    ]);
    // qrels list q5 before q1; q4 has grades 0 and -1 only; q9 is not a query
    const qrels = new Map([
      ['q5', new Map([['d1', 1]])],
      [
        'q4',
        new Map([
          ['d1', 0],
          ['d2', -1],
        ]),
      ],
      [
        'q1',
        new Map([
          ['d1', 0],
          ['d2', 3],
        ]),
      ],
      ['q2', new Map([['d3', 1]])],
      ['q9', new Map([['d3', 1]])],
    ]);
    // relevant: q1 (d2 = 3), q2 (d3 = 1), q5 (d1 = 1) -> in queries order q1, q2, q5
    expect(selectQueriesWithQrels({ queries, qrels })).toEqual([
      { id: 'q1', text: 'first' },
      { id: 'q2', text: 'second' },
      { id: 'q5', text: 'fifth' },
    ]);
  });

  it('returns nothing when no query has a relevant judgment', () => {
    expect(selectQueriesWithQrels({ queries: new Map([['q1', 'a']]), qrels: new Map() })).toEqual([]);
  });
});
