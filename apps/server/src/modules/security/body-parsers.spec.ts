import { findBodyProblem, MAX_JSON_DEPTH, prototypeFormKey } from './body-parsers';

describe('findBodyProblem', () => {
  it('accepts ordinary bodies', () => {
    expect(findBodyProblem({ query: 'failover', settings: { topK: 5, documentIds: ['a'] } })).toBeNull();
    expect(findBodyProblem(undefined)).toBeNull();
    expect(findBodyProblem({ name: 'constructor', tags: ['__proto__'] })).toBeNull(); // values are text
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

  it('refuses __proto__ and constructor keys and NUL characters in values and keys', () => {
    expect(findBodyProblem(JSON.parse('{"a":{"__proto__":{"x":1}}}'))).toMatch(/__proto__/);
    expect(findBodyProblem(JSON.parse('{"constructor":{"prototype":{}}}'))).toMatch(/"constructor" key/);
    expect(findBodyProblem({ items: [{ constructor: 1 }] })).toMatch(/"constructor" key/);
    expect(findBodyProblem({ items: ['ok', 'n\u0000ul'] })).toMatch(/NUL/);
    expect(findBodyProblem({ ['k\u0000']: 1 })).toMatch(/NUL/);
  });
});

describe('prototypeFormKey', () => {
  it('finds __proto__ and constructor as any segment of a form key, escaped or not', () => {
    expect(prototypeFormKey('__proto__[admin]=1')).toBe('__proto__');
    expect(prototypeFormKey('name=x&a[constructor][prototype][x]=1')).toBe('constructor');
    expect(prototypeFormKey('a.__proto__.x=1')).toBe('__proto__');
    expect(prototypeFormKey('%5F%5Fproto%5F%5F%5Bx%5D=1')).toBe('__proto__');
    expect(prototypeFormKey('a%5Bconstructor%5D=1')).toBe('constructor');
  });

  it('lets ordinary forms through, including those words as values', () => {
    expect(prototypeFormKey('name=constructor&role=__proto__')).toBeNull();
    expect(prototypeFormKey('a[b][c]=1&%ZZ=2&constructors=3')).toBeNull();
    expect(prototypeFormKey('')).toBeNull();
  });
});
