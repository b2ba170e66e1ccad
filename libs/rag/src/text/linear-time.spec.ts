import { sanitizeAnswer } from '../answer/answer-sanitizer';
import { parseStandaloneQuery } from '../answer/standalone-query';
import { slugify } from '../chunking/anchor';
import { cleanModelOutput } from '../expansion/model-output';
import { normaliseVariant, parseVariants } from '../expansion/parse-variants';

/**
 * Text that a model or a user wrote, shaped to make a backtracking pattern retry a long run from each of
 * its positions. Each case took from a second to minutes before its pattern was replaced; the bound is
 * generous (the work is now a few milliseconds), the outputs are checked exactly.
 */
const RUN = 200_000;

function quickly<T>(run: () => T): T {
  const started = performance.now();
  const result = run();
  expect(performance.now() - started).toBeLessThan(1000);
  return result;
}

describe('patterns that stay linear on hostile text', () => {
  it('an answer with a long run of blanks before its last word, and a URL ending in dots', () => {
    const spaced = quickly(() => sanitizeAnswer(`Yes${' '.repeat(RUN)}indeed [1]${' '.repeat(RUN)}`, 1));
    expect(spaced.text).toBe(`Yes${' '.repeat(RUN)}indeed [1]`);
    expect(spaced.citedMarkers).toEqual([1]);
    const url = quickly(() => sanitizeAnswer(`See https://example.com/${'.'.repeat(RUN)}x.,`, 1));
    expect(url.text).toBe('See (link removed).,');
  });

  it('an answer whose invalid marker takes the blanks before it along, as before', () => {
    expect(sanitizeAnswer('Paris  [7] is the capital [1].', 1).text).toBe('Paris is the capital [1].');
    const long = quickly(() => sanitizeAnswer(`a${' \t'.repeat(RUN)}b [1]`, 1));
    expect(long.text).toBe(`a${' \t'.repeat(RUN)}b [1]`);
  });

  it('a rewritten query wrapped in a long run of quotes', () => {
    expect(quickly(() => parseStandaloneQuery(`Query: ${'`'.repeat(RUN)}what is x?${'"'.repeat(RUN)}`))).toBe(
      'what is x?',
    );
    expect(parseStandaloneQuery(`"${'`'.repeat(RUN)}a`)).toBe('a');
  });

  it('query variants with long runs of punctuation, quotes and brackets', () => {
    expect(quickly(() => normaliseVariant(`Why?${' .'.repeat(RUN)}x`))).toBe(`why?${' .'.repeat(RUN)}x`);
    expect(normaliseVariant('What is BM25?!. ')).toBe('what is bm25');
    expect(quickly(() => parseVariants(`1. first variant\n2. second variant${'`'.repeat(RUN)}`, 2))).toEqual([
      'first variant',
      'second variant',
    ]);
    expect(() => quickly(() => parseVariants('['.repeat(RUN), 2))).toThrow(/not valid JSON/);
  });

  it('a fenced model answer, and a long run of line breaks after an opening fence', () => {
    expect(cleanModelOutput('```json\n["a", "b"]\n```')).toBe('["a", "b"]');
    expect(cleanModelOutput('```\n\nbody\n```  ')).toBe('body');
    const open = `\`\`\`\n${'\n'.repeat(RUN)}x`;
    expect(quickly(() => cleanModelOutput(open))).toBe(open.trim());
  });

  it('a slug from a heading made of a long run of dashes', () => {
    expect(quickly(() => slugify(`a${'-'.repeat(RUN)}b`))).toBe('a-b');
    expect(slugify('--Runbooks: Database--')).toBe('runbooks-database');
  });
});
