import type { LanguageDetector } from '@lumina/rag';

interface Eld {
  detect(text: string): { language: string };
}

/**
 * eld ships as an ES module only; this CommonJS build reaches it through the runtime's own dynamic
 * import (TypeScript would otherwise turn `import()` into a `require`, which the package refuses).
 */
const importModule = new Function('specifier', 'return import(specifier)') as (
  specifier: string,
) => Promise<unknown>;

/** The first characters tell the language; eld's cost grows with the length of the text. */
const SAMPLE_CHARS = 2_000;
const LETTER = /\p{L}/u;

/**
 * Language detection by eld (Efficient Language Detector), its `small` n-gram database: chosen over
 * franc, franc-min and tinyld by accuracy on short questions and on passages (README, "Retrieval in
 * other languages"). Loaded once per process (about 1.5 s, 150 MB resident).
 */
export class EldLanguageDetector implements LanguageDetector {
  constructor(private readonly eld: Eld) {}

  detect(text: string): string | null {
    const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
    if (!LETTER.test(sample)) return null;
    const language = this.eld.detect(sample).language;
    return language && language !== 'und' ? language : null;
  }
}

let loading: Promise<LanguageDetector> | null = null;

export function loadLanguageDetector(): Promise<LanguageDetector> {
  loading ??= importModule('eld/small').then(
    (module) => new EldLanguageDetector((module as { eld: Eld }).eld),
  );
  return loading;
}
