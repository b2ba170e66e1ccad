import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { LANGUAGE_SAMPLE_CHARS, languageSample } from '@lumina/rag';
import type { LanguageDetector, LanguageGuess } from '@lumina/rag';

interface Eld {
  detect(text: string): {
    language: string;
    getScores(): Record<string, number>;
    isReliable(): boolean;
  };
}

/**
 * eld ships as an ES module only, and its package exports name no `require` entry. Node ≥ 20.19 loads an
 * ES module with require() by its file path, which also works on worker threads and under the test
 * runner (which transforms that file); a dynamic import() would not survive the test runner's module
 * sandbox.
 */
function eldSmallEntry(): string {
  for (const dir of require.resolve.paths('eld') ?? []) {
    const file = join(dir, 'eld', 'src', 'entries', 'static.small.js');
    if (existsSync(file)) return file;
  }
  throw new Error('the eld package (language detection) is not installed');
}

const LETTER = /\p{L}/u;

/**
 * Language detection by eld (Efficient Language Detector), its `small` n-gram database: chosen over
 * franc, franc-min and tinyld by accuracy on short questions and on passages (docs/measurements.md,
 * "Retrieval in other languages"). Loaded once per process (about 1.5 s, 150 MB resident).
 */
export class EldLanguageDetector implements LanguageDetector {
  constructor(
    private readonly eld: Eld,
    /** How much of a text it reads (`languageSample`): eld's cost grows with it, its accuracy does not. */
    private readonly sampleChars = LANGUAGE_SAMPLE_CHARS,
  ) {}

  detect(text: string): string | null {
    const sample = languageSample(text, this.sampleChars);
    if (!LETTER.test(sample)) return null;
    const language = this.eld.detect(sample).language;
    return language && language !== 'und' ? language : null;
  }

  guess(text: string, sampleChars = this.sampleChars): LanguageGuess {
    const sample = languageSample(text, sampleChars);
    if (!LETTER.test(sample)) return { language: null, scores: {}, reliable: false };
    const result = this.eld.detect(sample);
    const language = result.language && result.language !== 'und' ? result.language : null;
    return {
      language,
      scores: language ? result.getScores() : {},
      reliable: language !== null && result.isReliable(),
    };
  }
}

let loading: Promise<LanguageDetector> | null = null;

export function loadLanguageDetector(): Promise<LanguageDetector> {
  loading ??= Promise.resolve().then(() => {
    const module = createRequire(__filename)(eldSmallEntry()) as { eld: Eld };
    return new EldLanguageDetector(module.eld);
  });
  return loading;
}
