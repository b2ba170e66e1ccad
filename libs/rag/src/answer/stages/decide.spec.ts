import { NOT_FOUND_SENTENCE, NOT_FOUND_SENTENCES } from '@lumina/shared';
import { startsWithNotFound } from './decide';

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

  it.each(Object.entries(NOT_FOUND_SENTENCES))(
    'recognises the %s sentence, alone and followed by more',
    (_, sentence) => {
      expect(startsWithNotFound(sentence)).toBe(true);
      expect(startsWithNotFound(`**${sentence}** …`)).toBe(true);
      expect(startsWithNotFound(sentence.replace(/[.。।]$/u, ''))).toBe(true);
      expect(startsWithNotFound(`Ok. ${sentence}`)).toBe(false);
    },
  );

  it('does not take a sentence that only starts like one', () => {
    expect(startsWithNotFound('所提供的文档说明了故障切换。')).toBe(false);
  });
});
