import { LANGUAGE_ANALYSIS, textSearchConfig } from './text-search-config';

const POSTGRES = new Set(['simple', 'english', 'german', 'spanish', 'russian', 'arabic', 'hindi']);

describe('textSearchConfig', () => {
  it('takes the Snowball configuration of Latin, Cyrillic and Arabic languages', () => {
    expect(textSearchConfig('en', POSTGRES)).toBe('english');
    expect(textSearchConfig('de', POSTGRES)).toBe('german');
    expect(textSearchConfig('es', POSTGRES)).toBe('spanish');
    expect(textSearchConfig('ru', POSTGRES)).toBe('russian');
    expect(textSearchConfig('ar', POSTGRES)).toBe('arabic');
    expect(textSearchConfig('pt-BR', new Set(['portuguese']))).toBe('portuguese');
  });

  it('keeps a Snowball configuration only with the measurement that chose it', () => {
    expect(LANGUAGE_ANALYSIS.en).toEqual({
      config: 'english',
      reason: expect.stringMatching(/english 0\.9703, simple 0\.9584/),
    });
    expect(LANGUAGE_ANALYSIS.de!.reason).toMatch(/german 0\.9435, simple 0\.9125/);
    expect(LANGUAGE_ANALYSIS.es!.reason).toMatch(/spanish 0\.9622, simple 0\.9481/);
    expect(LANGUAGE_ANALYSIS.ru).toEqual({ config: 'russian', reason: expect.stringMatching(/^no data/) });
  });

  it('analyses Hindi with simple, where it measured better than the hindi stemmer', () => {
    expect(textSearchConfig('hi', POSTGRES)).toBe('simple');
    expect(LANGUAGE_ANALYSIS.hi!.reason).toMatch(/simple 0\.9452, hindi 0\.7948/);
  });

  it('falls back to simple for scripts without spaces, unknown languages and missing configurations', () => {
    for (const language of ['zh', 'ja', 'th', 'lo', 'km', 'my', 'ko', 'vi', 'xx', null, undefined]) {
      expect(textSearchConfig(language, POSTGRES)).toBe('simple');
    }
    // estonian exists from PostgreSQL 16 on
    expect(textSearchConfig('et', POSTGRES)).toBe('simple');
    expect(textSearchConfig('et', new Set(['estonian']))).toBe('estonian');
  });
});
