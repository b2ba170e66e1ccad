import { parseBeirQrels, parseBeirQueries } from './parse-beir-text';

describe('parseBeirQueries', () => {
  it('reads ids (strings or numbers) and texts, and reports bad lines by number', () => {
    const text = [
      '{"_id": "q1", "text": "first"}',
      '',
      '{"_id": 2, "text": "second", "metadata": {}}',
      '{"_id": "q1", "text": "again"}',
      '{"text": "no id"}',
      '[1]',
      '{"_id": "q5", "text": "  "}',
      'nonsense',
    ].join('\n');
    const parsed = parseBeirQueries(text);
    expect(parsed.queries).toEqual([
      { line: 1, id: 'q1', text: 'first' },
      { line: 3, id: '2', text: 'second' },
    ]);
    expect(parsed.problems.map((p) => [p.line, p.reason.split(' (')[0]])).toEqual([
      [4, 'duplicate _id "q1"'],
      [5, '"_id" must be a non-empty string or a number'],
      [6, 'expected a JSON object with "_id" and "text"'],
      [7, '"text" must be a non-empty string'],
      [8, 'malformed JSON'],
    ]);
  });
});

describe('parseBeirQrels', () => {
  it('reads judgments in file order after an optional header, with the first line of each query', () => {
    const parsed = parseBeirQrels('query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td9\t0\nq1\td2\t2\nq1\td1\t1\n');
    expect([...parsed.judgments].map(([q, m]) => [q, [...m]])).toEqual([
      [
        'q1',
        [
          ['d1', 1],
          ['d2', 2],
        ],
      ],
      ['q2', [['d9', 0]]],
    ]);
    expect(parsed.firstLine.get('q2')).toBe(3);
    expect(parsed.problems).toEqual([]);
  });

  it('reports lines with the wrong number of columns, non-integer scores and conflicting repeats', () => {
    const parsed = parseBeirQrels('q1 d1 1\nq1\td1\tone\nq1\td1\t1\nq1\td1\t2');
    expect(parsed.problems.map((p) => p.line)).toEqual([1, 2, 4]);
    expect(parsed.problems[0].reason).toMatch(/3 tab-separated columns/);
    expect(parsed.problems[1].reason).toMatch(/score must be an integer/);
    expect(parsed.problems[2].reason).toMatch(/conflicting judgments/);
  });
});
