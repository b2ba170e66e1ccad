import { textSearchConfig } from './text-search-config';

const POSTGRES = new Set(['simple', 'english', 'german', 'spanish', 'russian', 'arabic', 'hindi']);

describe('textSearchConfig', () => {
  it('takes the Snowball configuration of Latin, Cyrillic, Arabic and Devanagari languages', () => {
    expect(textSearchConfig('en', POSTGRES)).toBe('english');
    expect(textSearchConfig('de', POSTGRES)).toBe('german');
    expect(textSearchConfig('es', POSTGRES)).toBe('spanish');
    expect(textSearchConfig('ru', POSTGRES)).toBe('russian');
    expect(textSearchConfig('ar', POSTGRES)).toBe('arabic');
    expect(textSearchConfig('hi', POSTGRES)).toBe('hindi');
    expect(textSearchConfig('pt-BR', new Set(['portuguese']))).toBe('portuguese');
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
