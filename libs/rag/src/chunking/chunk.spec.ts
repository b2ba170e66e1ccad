import { HEADING_SEPARATOR, assertValidChunkerOptions, buildIndexText, formatHeadingPath } from './chunk';

describe('formatHeadingPath', () => {
  it('joins headings with the separator', () => {
    expect(HEADING_SEPARATOR).toBe(' › ');
    expect(formatHeadingPath(['Runbooks', 'Database', 'Failover'])).toBe('Runbooks › Database › Failover');
    expect(formatHeadingPath(['Only'])).toBe('Only');
    expect(formatHeadingPath([])).toBe('');
  });
});

describe('buildIndexText', () => {
  it('prefixes the heading path and a blank line', () => {
    expect(buildIndexText(['A', 'B'], 'Body.')).toBe('A › B\n\nBody.');
  });

  it('is just the text without headings', () => {
    expect(buildIndexText([], 'Body.')).toBe('Body.');
  });
});

describe('assertValidChunkerOptions', () => {
  it('accepts overlap from 0 up to maxChars - 1', () => {
    expect(() => assertValidChunkerOptions({ maxChars: 1, overlapChars: 0 })).not.toThrow();
    expect(() => assertValidChunkerOptions({ maxChars: 500, overlapChars: 499 })).not.toThrow();
  });

  it('names the offending option and value', () => {
    expect(() => assertValidChunkerOptions({ maxChars: 0, overlapChars: 0 })).toThrow(
      new RangeError('maxChars must be an integer >= 1, got 0'),
    );
    expect(() => assertValidChunkerOptions({ maxChars: 100, overlapChars: 100 })).toThrow(
      new RangeError('overlapChars must be >= 0 and < maxChars (100), got 100'),
    );
  });
});
