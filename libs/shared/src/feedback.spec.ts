import { issueSentences } from './contract/zod';
import { feedbackInputSchema, feedbackToBankRequestSchema, listFeedbackQuerySchema } from './feedback';

const problems = (
  schema: { safeParse(value: unknown): { success: boolean; error?: unknown } },
  value: unknown,
) => {
  const result = schema.safeParse(value);
  return result.success ? [] : issueSentences(result.error as Parameters<typeof issueSentences>[0]);
};

describe('the feedback contract', () => {
  it('takes a rating with known reasons and a note of at most 2,000 characters', () => {
    expect(
      problems(feedbackInputSchema, { rating: 'down', reasons: ['wrong'], note: 'x'.repeat(2000) }),
    ).toEqual([]);
    expect(problems(feedbackInputSchema, { rating: 'up' })).toEqual([]);
  });

  it('names the field of each mistake', () => {
    expect(problems(feedbackInputSchema, { rating: 'down', reasons: ['boring'] })).toEqual([
      expect.stringMatching(/^reasons\[0\].*reason must be one of wrong, incomplete/),
    ]);
    expect(problems(feedbackInputSchema, { rating: 'down', note: 'x'.repeat(2001) })).toEqual([
      'note must be shorter than or equal to 2000 characters',
    ]);
    expect(problems(feedbackInputSchema, {})).toEqual(['rating is required']);
    expect(problems(feedbackInputSchema, { rating: 'up', stars: 5 })).toEqual([
      'property stars should not exist',
    ]);
  });

  it('reads the queue filters from a query string', () => {
    expect(
      listFeedbackQuerySchema.parse({
        rating: 'down',
        reason: 'outdated',
        unreviewed: 'true',
        from: '2026-01-01',
      }),
    ).toEqual({ rating: 'down', reason: 'outdated', unreviewed: true, from: '2026-01-01' });
    expect(problems(listFeedbackQuerySchema, { from: 'yesterday' })).toEqual([
      'from must be a date or a date-time (ISO 8601)',
    ]);
  });

  it('asks for at least one entry to take to a bank', () => {
    expect(
      problems(feedbackToBankRequestSchema, { bankId: '3f0c9d2e-5b1a-4c7e-9f6d-2a8b7c6d5e4f', entries: [] }),
    ).toEqual(['entries must hold at least one entry']);
  });
});
