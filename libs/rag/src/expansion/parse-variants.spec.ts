import { normaliseVariant, parseVariants } from './parse-variants';

describe('parseVariants', () => {
  const query = 'how to fail over the database';

  it.each([
    [
      'a JSON object',
      '{"queries": ["promote the standby replica", "switch primary database", "postgres failover steps"]}',
    ],
    ['a JSON array', '["promote the standby replica", "switch primary database", "postgres failover steps"]'],
    [
      'JSON in a code fence with a sentence around it',
      'Here you go:\n```json\n{"variants": ["promote the standby replica", "switch primary database", "postgres failover steps"]}\n```',
    ],
    [
      'an array of objects',
      '[{"query": "promote the standby replica"}, {"query": "switch primary database"}, {"text": "postgres failover steps"}]',
    ],
    [
      'a numbered list',
      '1. promote the standby replica\n2) switch primary database\n(3) postgres failover steps',
    ],
    [
      'a bulleted list with a preamble and labels',
      'Here are three variants:\n- Variant 1: "promote the standby replica"\n* **switch primary database**\n• postgres failover steps',
    ],
    [
      'bare lines, exactly as many as asked',
      'promote the standby replica\nswitch primary database\npostgres failover steps',
    ],
    [
      'a reasoning block before the answer',
      '<think>The user wants [1, 2] things...</think>\n["promote the standby replica", "switch primary database", "postgres failover steps"]',
    ],
    [
      'an object with an unexpected key',
      '{"search_queries": ["promote the standby replica", "switch primary database", "postgres failover steps"]}',
    ],
  ])('reads %s', (_label, output) => {
    expect(parseVariants(output, 3, query)).toEqual([
      'promote the standby replica',
      'switch primary database',
      'postgres failover steps',
    ]);
  });

  it('returns exactly N distinct variants: duplicates and the query itself are dropped, extras cut', () => {
    const output = JSON.stringify([
      'How to fail over the database?',
      'promote the standby replica',
      'Promote  the standby replica.',
      '',
      'switch primary database',
      'postgres failover steps',
      'one too many',
    ]);
    expect(parseVariants(output, 3, query)).toEqual([
      'promote the standby replica',
      'switch primary database',
      'postgres failover steps',
    ]);
  });

  it('keeps fewer than N when the model gave fewer usable ones', () => {
    expect(parseVariants('["promote the standby replica", "promote the standby replica"]', 3, query)).toEqual(
      ['promote the standby replica'],
    );
  });

  it.each([
    ['prose', "I'm sorry, but I can't help with that request."],
    ['invalid JSON', '{"queries": ["promote the standby replica", '],
    ['JSON without a list of strings', '{"queries": 42, "note": "none"}'],
    ['an empty answer', ''],
    ['only the query again', `["${query}", "How to fail over the database"]`],
    ['an unterminated reasoning block', '<think>Let me think about failover and replicas'],
    ['bare lines that are not as many as asked', 'promote the standby replica\nswitch primary database'],
  ])('throws on %s, quoting what it got', (_label, output) => {
    expect(() => parseVariants(output, 3, query)).toThrow(/the model's/);
  });

  describe('with bareLines (one query per line was asked for)', () => {
    it('takes bare lines whatever their number, drops repeats and the query, keeps at most N', () => {
      const output = [query, 'promote the standby replica', 'promote the standby replica', ''].join('\n');
      expect(parseVariants(output, 3, query, { bareLines: true })).toEqual(['promote the standby replica']);
      const many = ['a one', 'b two', 'c three', 'd four'].join('\n');
      expect(parseVariants(many, 3, query, { bareLines: true })).toEqual(['a one', 'b two', 'c three']);
    });

    it('still reads a numbered list or JSON first, and skips heading lines', () => {
      expect(parseVariants('1. a one\n2. b two', 3, query, { bareLines: true })).toEqual(['a one', 'b two']);
      expect(parseVariants('["a one"]', 3, query, { bareLines: true })).toEqual(['a one']);
      expect(parseVariants('Queries:\nswitch primary database', 3, query, { bareLines: true })).toEqual([
        'switch primary database',
      ]);
    });

    it('throws when no line differs from the query', () => {
      expect(() => parseVariants(`${query}\n${query}.`, 3, query, { bareLines: true })).toThrow(
        /differs from the original/,
      );
      expect(() => parseVariants('  \n', 3, query, { bareLines: true })).toThrow(/not a list of queries/);
    });
  });

  it('does not take prose lines for bare variants when one is asked for', () => {
    expect(() => parseVariants('Sure, I can do that.', 1, query)).toThrow();
  });

  it('ignores case, spaces, quotes and trailing punctuation when comparing', () => {
    expect(normaliseVariant('  "Promote   the Replica?" ')).toBe(normaliseVariant('promote the replica'));
  });
});
