import { isWhitespace, trailingChars, trimChars, trimCharsEnd } from './trim-chars';

describe('trimChars', () => {
  it('drops the listed characters at both ends only', () => {
    expect(trimChars('"`quoted` text"', '"`')).toBe('quoted` text');
    expect(trimChars('---', '-')).toBe('');
    expect(trimChars('', '-')).toBe('');
    expect(trimChars('a-b', '-')).toBe('a-b');
  });

  it('trims only the end with trimCharsEnd, and reports that run with trailingChars', () => {
    expect(trimCharsEnd('Why?!.. ', ' .?!')).toBe('Why');
    expect(trailingChars('https://example.com/a.,', '.,;:!?')).toBe('.,');
    expect(trailingChars('https://example.com/a', '.,;:!?')).toBe('');
  });

  it('sees whitespace as \\s does', () => {
    for (const character of [' ', '\t', '\n', '\r', '\u00a0', '\u2028', '\ufeff']) {
      expect(isWhitespace(character)).toBe(true);
      expect(/\s/.test(character)).toBe(true);
    }
    expect(isWhitespace('a')).toBe(false);
  });

  it('is linear on a long run followed by something else (the shape that is quadratic for /[…]+$/)', () => {
    const hostile = `a${'.'.repeat(500_000)}b`;
    const started = performance.now();
    expect(trimCharsEnd(hostile, '.')).toBe(hostile);
    expect(trimChars(`${'"'.repeat(500_000)}x${'"'.repeat(500_000)}`, '"')).toBe('x');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
