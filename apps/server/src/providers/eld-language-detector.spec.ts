import type { LanguageDetector } from '@lumina/rag';
import { loadLanguageDetector } from './eld-language-detector';

describe('EldLanguageDetector', () => {
  let detector: LanguageDetector;
  beforeAll(async () => {
    detector = await loadLanguageDetector();
  });

  it('names the language of short questions', () => {
    expect(detector.detect('How many days of annual leave do staff get?')).toBe('en');
    expect(detector.detect('Wie viele Urlaubstage bekommen die Mitarbeiter?')).toBe('de');
    expect(detector.detect('¿Cuántos días de vacaciones tienen los empleados?')).toBe('es');
    expect(detector.detect('员工每年有多少天年假？')).toBe('zh');
  });

  it('says nothing of a text without letters', () => {
    expect(detector.detect('1234 — 5678 !!')).toBeNull();
  });

  it('names the language of a long document by its body, not by a header in another language', () => {
    const header = 'Copyright 2024 the authors. Licensed under the Apache License, Version 2.0.\n\n';
    const body =
      'Die Mitarbeiter erhalten dreißig Tage Urlaub im Jahr. Der Antrag wird beim Vorgesetzten gestellt, ' +
      'der ihn innerhalb einer Woche beantwortet. Nicht genommene Tage verfallen am Ende des Jahres. ';
    expect(detector.detect(header + body.repeat(20))).toBe('de');
  });

  it('gives its scores and whether it trusts its answer, and nothing for a text without letters', () => {
    const guess = detector.guess('How many days of annual leave do staff get in their first year of work?');
    expect(guess.language).toBe('en');
    expect(guess.reliable).toBe(true);
    expect(guess.scores.en).toBeGreaterThan(guess.scores.de ?? 0);
    expect(detector.guess('1234 — 5678 !!')).toEqual({ language: null, scores: {}, reliable: false });
  });
});
