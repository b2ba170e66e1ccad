import type { LanguageDetector, LanguageGuess } from '../ports/language-detector.port';
import {
  decideDocumentLanguages,
  MIN_LANGUAGE_LEAD,
  prevailingLanguage,
  SECOND_LOOK_CHARS,
  settleLanguage,
} from './document-language';

const LONG = 'word '.repeat(100);

/** A detector that answers from a script: first look (default sample) and second look (1,000 chars). */
function scripted(first: LanguageGuess, second: LanguageGuess = first) {
  const calls: (number | undefined)[] = [];
  const detector: LanguageDetector = {
    detect: () => first.language,
    guess: (_text, sampleChars) => {
      calls.push(sampleChars);
      return sampleChars === SECOND_LOOK_CHARS ? second : first;
    },
  };
  return { detector, calls };
}

const guess = (language: string | null, scores: Record<string, number>, reliable = true): LanguageGuess => ({
  language,
  scores,
  reliable,
});

describe('prevailingLanguage', () => {
  it('names the language of more than half of the documents', () => {
    expect(prevailingLanguage({ en: 97, fr: 3 })).toBe('en');
    expect(prevailingLanguage({ de: 6, en: 3, fr: 2 })).toBe('de');
  });

  it('names none when no language holds a majority, or the corpus is empty', () => {
    expect(prevailingLanguage({ en: 5, de: 5 })).toBeNull();
    expect(prevailingLanguage({ en: 4, de: 3, fr: 3 })).toBeNull();
    expect(prevailingLanguage({})).toBeNull();
  });
});

describe('settleLanguage', () => {
  it('takes the detector at its word without a prevailing language, or when it agrees', () => {
    const fr = guess('fr', { fr: 0.8, en: 0.6 });
    expect(settleLanguage(LONG, fr, scripted(fr).detector, null)).toEqual({
      language: 'fr',
      source: 'detected',
    });
    const en = guess('en', { en: 0.8 });
    expect(settleLanguage(LONG, en, scripted(en).detector, 'en')).toEqual({
      language: 'en',
      source: 'detected',
    });
    expect(settleLanguage(LONG, guess(null, {}, false), scripted(en).detector, null)).toEqual({
      language: null,
      source: 'undetected',
    });
  });

  it('keeps the prevailing language for a short text, an unsure or a silent detector', () => {
    const fr = guess('fr', { fr: 0.9, en: 0.1 });
    const keep = { language: 'en', source: 'prevailing' };
    expect(settleLanguage('Le chat dort.', fr, scripted(fr).detector, 'en')).toEqual(keep);
    const unsure = guess('fr', { fr: 0.9, en: 0.1 }, false);
    expect(settleLanguage(LONG, unsure, scripted(unsure).detector, 'en')).toEqual(keep);
    const silent = guess(null, {}, false);
    expect(settleLanguage(LONG, silent, scripted(silent).detector, 'en')).toEqual(keep);
  });

  it('keeps the prevailing language when a second look at more of the text names it', () => {
    const { detector, calls } = scripted(
      guess('fr', { fr: 0.75, en: 0.66 }),
      guess('en', { en: 0.7, fr: 0.68 }),
    );
    expect(settleLanguage(LONG, guess('fr', { fr: 0.75, en: 0.66 }), detector, 'en')).toEqual({
      language: 'en',
      source: 'prevailing',
    });
    expect(calls).toEqual([SECOND_LOOK_CHARS]);
  });

  it('leaves the prevailing language only when the other one leads it by MIN_LANGUAGE_LEAD', () => {
    const close = guess('mr', { mr: 0.8755, hi: 0.8738 });
    expect(settleLanguage(LONG, close, scripted(close).detector, 'hi').language).toBe('hi');
    const lead = 0.8 - MIN_LANGUAGE_LEAD;
    const clear = guess('de', { de: 0.8, en: lead - 0.001 });
    expect(settleLanguage(LONG, clear, scripted(clear).detector, 'en')).toEqual({
      language: 'de',
      source: 'detected',
    });
  });
});

describe('decideDocumentLanguages', () => {
  const fr = guess('fr', { fr: 0.75, en: 0.72 });
  const detector: LanguageDetector = {
    detect: (text) => (text.startsWith('EN') ? 'en' : 'fr'),
    guess: (text) => (text.startsWith('EN') ? guess('en', { en: 0.8, fr: 0.5 }) : fr),
  };

  it('lets the upload, then DEFAULT_LANGUAGE, override detection', () => {
    const decided = decideDocumentLanguages(
      [
        { text: `EN ${LONG}`, upload: 'de' },
        { text: `EN ${LONG}`, upload: null },
      ],
      detector,
      { defaultLanguage: 'es', corpusCounts: {} },
    );
    expect(decided).toEqual([
      { language: 'de', source: 'upload' },
      { language: 'es', source: 'default' },
    ]);
  });

  it('holds an uncertain document to the language the corpus and the batch mostly hold', () => {
    const docs = [`EN ${LONG}`, `EN ${LONG}`, `FR ${LONG}`].map((text) => ({ text, upload: null }));
    // The batch alone is 2 English to 1 French: English prevails even in an empty corpus.
    expect(decideDocumentLanguages(docs, detector, { defaultLanguage: null, corpusCounts: {} })).toEqual([
      { language: 'en', source: 'detected' },
      { language: 'en', source: 'detected' },
      { language: 'en', source: 'prevailing' },
    ]);
    // In a French corpus the French document stays French; the English ones lead French clearly.
    const french = decideDocumentLanguages(docs, detector, {
      defaultLanguage: null,
      corpusCounts: { fr: 10 },
    });
    expect(french.map((d) => d.language)).toEqual(['en', 'en', 'fr']);
  });
});
