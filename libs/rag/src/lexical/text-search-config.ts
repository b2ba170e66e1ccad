/**
 * A language's text-search configuration, and why. `simple` lower-cases words and does nothing else; a
 * Snowball configuration also stems them and drops its stop words. A Snowball configuration is used only
 * where it measured better than `simple`, or, for languages the project has no data for, where it is what
 * the installation has always used (README, "Retrieval in other languages"). XQuAD: BM25 nDCG@10 over
 * all 1,190 questions; NFCorpus: the dev split (324 questions).
 */
export interface LanguageAnalysisChoice {
  config: string;
  reason: string;
}

const MEASURED: Readonly<Record<string, LanguageAnalysisChoice>> = Object.freeze({
  en: { config: 'english', reason: 'XQuAD en: english 0.9703, simple 0.9584' },
  de: { config: 'german', reason: 'XQuAD de: german 0.9435, simple 0.9125' },
  es: { config: 'spanish', reason: 'XQuAD es: spanish 0.9622, simple 0.9481' },
  hi: {
    config: 'simple',
    reason:
      'XQuAD hi: simple 0.9452, hindi 0.7948 (the hindi stemmer has no stop words and cuts postpositions and ' +
      'verbs to one letter: ने → न, दिए → द)',
  },
});

/** Languages without data keep the Snowball configuration they have always had. */
const UNMEASURED = 'no data: the Snowball configuration, as before';

const SNOWBALL_CONFIGS: Readonly<Record<string, string>> = Object.freeze({
  ar: 'arabic',
  ca: 'catalan',
  da: 'danish',
  el: 'greek',
  et: 'estonian',
  eu: 'basque',
  fi: 'finnish',
  fr: 'french',
  ga: 'irish',
  hu: 'hungarian',
  hy: 'armenian',
  id: 'indonesian',
  it: 'italian',
  lt: 'lithuanian',
  nb: 'norwegian',
  ne: 'nepali',
  nl: 'dutch',
  nn: 'norwegian',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
});

/** The configuration chosen for each language (ISO 639-1) with its reason; absent languages get `simple`. */
export const LANGUAGE_ANALYSIS: Readonly<Record<string, LanguageAnalysisChoice>> = Object.freeze({
  ...Object.fromEntries(
    Object.entries(SNOWBALL_CONFIGS).map(([language, config]) => [language, { config, reason: UNMEASURED }]),
  ),
  ...MEASURED,
});

export const SIMPLE_CONFIG = 'simple';

/**
 * The text-search configuration for a language: the one LANGUAGE_ANALYSIS chooses when the database has
 * it, `simple` otherwise (an unknown or undetected language, Chinese, Japanese, Thai, Hindi, …).
 */
export function textSearchConfig(
  language: string | null | undefined,
  available: ReadonlySet<string>,
): string {
  if (!language) return SIMPLE_CONFIG;
  const config = LANGUAGE_ANALYSIS[language.toLowerCase().split(/[-_]/)[0]!]?.config;
  return config && available.has(config) ? config : SIMPLE_CONFIG;
}
