import { chunkingForLanguage } from './language-chunking';

const SETTINGS = { unit: 'chunk' as const, maxChars: 1200, overlapChars: 200 };

describe('chunkingForLanguage', () => {
  it('scales the sizes for Chinese and Japanese by the measured characters per Latin character', () => {
    expect(chunkingForLanguage(SETTINGS, 'zh')).toEqual({ unit: 'chunk', maxChars: 384, overlapChars: 64 });
    expect(chunkingForLanguage(SETTINGS, 'ja')).toEqual({ unit: 'chunk', maxChars: 384, overlapChars: 64 });
  });

  it('keeps the sizes for alphabetic scripts, unknown languages and whole-document units', () => {
    for (const language of ['en', 'de', 'ru', 'ar', 'th', null, undefined]) {
      expect(chunkingForLanguage(SETTINGS, language)).toBe(SETTINGS);
    }
    const whole = { unit: 'document' as const, maxChars: 1200, overlapChars: 200 };
    expect(chunkingForLanguage(whole, 'zh')).toBe(whole);
  });

  it('keeps the overlap below the chunk size for tiny settings', () => {
    const tiny = chunkingForLanguage({ unit: 'chunk', maxChars: 3, overlapChars: 3 }, 'zh');
    expect(tiny.maxChars).toBe(1);
    expect(tiny.overlapChars).toBe(0);
  });
});
