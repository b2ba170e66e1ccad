import { int, issueSentences, oneOf, pageQuerySchema, tagList, text, uuid, z } from './zod';

const item = z.strictObject({
  name: text('name', 5),
  count: int('count', 1, 10).optional(),
  id: uuid('id').optional(),
  tags: tagList().optional(),
  kind: oneOf('kind', ['a', 'b'] as const).optional(),
  sources: z.array(z.strictObject({ grade: int('grade', -10, 10) })).optional(),
});

function sentences(input: unknown): string[] {
  const parsed = item.safeParse(input);
  if (parsed.success) throw new Error('expected a failed parse');
  return issueSentences(parsed.error);
}

describe('the contract helpers', () => {
  it('name the field and say what is wrong, for every problem at once', () => {
    expect(
      sentences({
        name: 'abcdefg',
        count: 1.5,
        id: 'x',
        tags: ['', 'a'],
        kind: 'c',
        extra: 1,
        sources: [{ grade: 'x', other: 1 }],
      }),
    ).toEqual([
      'name must be shorter than or equal to 5 characters',
      'count must be an integer',
      'id must be an id (a UUID)',
      'tags[0]: tag must not be empty',
      'kind must be one of a, b',
      'sources[0].grade must be an integer',
      'property sources[0].other should not exist',
      'property extra should not exist',
    ]);
  });

  it('say a missing field is required and a wrong type is wrong', () => {
    expect(sentences({})).toEqual(['name is required']);
    expect(sentences({ name: 3 })).toEqual(['name must be a string']);
    expect(sentences({ name: 'a', tags: ['  '] })).toEqual(['tags[0]: tag must not be only spaces']);
  });

  it('read page and limit from a query string; a huge limit is left for the cap, not refused', () => {
    expect(pageQuerySchema.parse({ page: '2', limit: '1e18' })).toEqual({ page: 2, limit: 1e18 });
    const bad = pageQuerySchema.safeParse({ page: 'abc', limit: '0' });
    expect(bad.success ? [] : issueSentences(bad.error)).toEqual([
      'page must be an integer',
      'limit must be 1 or more',
    ]);
    expect(pageQuerySchema.safeParse({ page: String(2_000_000) }).success).toBe(false);
  });
});
