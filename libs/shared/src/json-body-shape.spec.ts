import {
  MAX_JSON_DEPTH,
  MAX_JSON_OBJECT_KEYS,
  findJsonBodyProblem,
  findJsonTextProblem,
} from './json-body-shape';

const wide = (keys: number): Record<string, number> =>
  Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i]));

describe('findJsonBodyProblem', () => {
  it('accepts ordinary bodies and objects at the key limit', () => {
    expect(findJsonBodyProblem({ query: 'failover', settings: { topK: 5, documentIds: ['a'] } })).toBeNull();
    expect(findJsonBodyProblem(undefined)).toBeNull();
    expect(findJsonBodyProblem(wide(MAX_JSON_OBJECT_KEYS))).toBeNull();
    // Arrays are bounded by each route's own rules (and the body size), not by the key limit.
    expect(
      findJsonBodyProblem({ items: Array.from({ length: 5000 }, (_, i) => ({ q: `q${i}` })) }),
    ).toBeNull();
  });

  it('refuses an object with more keys than the limit at any level, naming the limit', () => {
    expect(findJsonBodyProblem(wide(MAX_JSON_OBJECT_KEYS + 1))).toBe(
      `An object in the request body has ${MAX_JSON_OBJECT_KEYS + 1} keys; the limit is ${MAX_JSON_OBJECT_KEYS} keys per object.`,
    );
    expect(findJsonBodyProblem({ settings: { nested: [wide(1000)] } })).toMatch(
      /has 1000 keys; the limit is 100/,
    );
  });

  it('refuses nesting deeper than the limit, iteratively', () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH; i += 1) deep = [deep];
    expect(findJsonBodyProblem(deep)).toBeNull();
    expect(findJsonBodyProblem([deep])).toMatch(/nested more than 32 levels/);
    let veryDeep: unknown = 1;
    for (let i = 0; i < 200_000; i += 1) veryDeep = { a: veryDeep };
    expect(findJsonBodyProblem(veryDeep)).toMatch(/nested more than/);
  });

  it('refuses __proto__ and constructor keys and NUL characters in values and keys', () => {
    expect(findJsonBodyProblem(JSON.parse('{"a":{"__proto__":{"x":1}}}'))).toMatch(/__proto__/);
    expect(findJsonBodyProblem(JSON.parse('{"constructor":{"prototype":{}}}'))).toMatch(/"constructor" key/);
    expect(findJsonBodyProblem({ name: 'constructor', tags: ['__proto__'] })).toBeNull(); // values are text
    expect(findJsonBodyProblem({ items: ['ok', 'n\u0000ul'] })).toMatch(/NUL/);
    expect(findJsonBodyProblem({ ['k\u0000']: 1 })).toMatch(/NUL/);
  });

  it('takes other limits', () => {
    expect(findJsonBodyProblem({ a: 1, b: 2, c: 3 }, { maxDepth: 5, maxObjectKeys: 2 })).toMatch(
      /limit is 2 keys/,
    );
    expect(findJsonBodyProblem({ a: { b: {} } }, { maxDepth: 2, maxObjectKeys: 10 })).toMatch(
      /more than 2 levels/,
    );
  });
});

describe('findJsonTextProblem (the raw text, before parsing)', () => {
  const text = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));

  it('accepts ordinary bodies, objects at the key limit and any array length', () => {
    expect(
      findJsonTextProblem(text({ query: 'a, b, {c}', settings: { topK: 5, documentIds: ['a', 'b'] } })),
    ).toBeNull();
    expect(findJsonTextProblem(text(wide(MAX_JSON_OBJECT_KEYS)))).toBeNull();
    expect(
      findJsonTextProblem(text({ items: Array.from({ length: 5000 }, (_, i) => ({ q: `q${i}`, n: i })) })),
    ).toBeNull();
    expect(findJsonTextProblem(text({}))).toBeNull();
    expect(findJsonTextProblem(new Uint8Array())).toBeNull();
  });

  it('does not count commas, braces or quotes inside strings, escaped or multi-byte', () => {
    const tricky = { [`k"},{,,,`]: 'v\\",,,,{{{[[[', émoji: '🙂,🙂', ...wide(MAX_JSON_OBJECT_KEYS - 2) };
    expect(findJsonTextProblem(text(tricky))).toBeNull();
    expect(findJsonTextProblem(text({ s: ','.repeat(10_000) }))).toBeNull();
  });

  it('refuses an object past the key limit at any level, naming its key count and the limit', () => {
    expect(findJsonTextProblem(text(wide(MAX_JSON_OBJECT_KEYS + 1)))).toBe(
      `An object in the request body has ${MAX_JSON_OBJECT_KEYS + 1} keys; the limit is ${MAX_JSON_OBJECT_KEYS} keys per object.`,
    );
    expect(findJsonTextProblem(text({ a: [{ b: wide(1000) }] }))).toMatch(
      /has 1000 keys; the limit is 100 keys/,
    );
  });

  it('refuses nesting past the depth limit, as findJsonBodyProblem does', () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH; i += 1) deep = [deep];
    expect(findJsonTextProblem(text(deep))).toBeNull();
    expect(findJsonTextProblem(text([deep]))).toMatch(/nested more than 32 levels/);
    expect(findJsonTextProblem(new TextEncoder().encode('['.repeat(1_000_000)))).toMatch(/nested more than/);
  });

  it('scans 100,000 keys in far less time than JSON.parse takes on them', () => {
    const bytes = text(
      Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`_${i.toString(36)}`, 0])),
    );
    const started = performance.now();
    expect(findJsonTextProblem(bytes)).toMatch(/has 100000 keys/);
    expect(performance.now() - started).toBeLessThan(50);
  });
});
