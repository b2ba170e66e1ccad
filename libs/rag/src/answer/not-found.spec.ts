import { NOT_FOUND_SENTENCE } from '@lumina/shared';
import { startsWithNotFound } from './not-found';

describe('startsWithNotFound', () => {
  it.each([
    NOT_FOUND_SENTENCE,
    `${NOT_FOUND_SENTENCE} The passages cover backups only [2].`,
    '  the provided documents do not contain enough information to answer this question',
    '**The provided documents don’t contain enough information to answer this question.**',
    '"The provided documents do not contain enough information to answer this question." However…',
  ])('recognises %p', (answer) => {
    expect(startsWithNotFound(answer)).toBe(true);
  });

  it.each([
    'Promote the standby [1].',
    `Backups run nightly [1]. ${NOT_FOUND_SENTENCE}`,
    'The provided documents do not say.',
    '',
  ])('does not flag %p', (answer) => {
    expect(startsWithNotFound(answer)).toBe(false);
  });
});
