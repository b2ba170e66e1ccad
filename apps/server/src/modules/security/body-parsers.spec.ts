import { findBodyProblem, MAX_JSON_DEPTH } from './body-parsers';

describe('findBodyProblem', () => {
  it('accepts ordinary bodies', () => {
    expect(findBodyProblem({ query: 'failover', settings: { topK: 5, documentIds: ['a'] } })).toBeNull();
    expect(findBodyProblem(undefined)).toBeNull();
    expect(findBodyProblem(JSON.parse('{"constructor":{"prototype":{}}}'))).toBeNull();
  });

  it('refuses nesting deeper than the limit, iteratively', () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH; i += 1) deep = [deep];
    expect(findBodyProblem(deep)).toBeNull();
    expect(findBodyProblem([deep])).toMatch(/nested more than/);
    let veryDeep: unknown = 1;
    for (let i = 0; i < 200_000; i += 1) veryDeep = { a: veryDeep };
    expect(findBodyProblem(veryDeep)).toMatch(/nested more than/);
  });

  it('refuses __proto__ keys and NUL characters in values and keys', () => {
    expect(findBodyProblem(JSON.parse('{"a":{"__proto__":{"x":1}}}'))).toMatch(/__proto__/);
    expect(findBodyProblem({ items: ['ok', 'n\u0000ul'] })).toMatch(/NUL/);
    expect(findBodyProblem({ ['k\u0000']: 1 })).toMatch(/NUL/);
  });
});
