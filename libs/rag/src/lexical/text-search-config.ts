/**
 * PostgreSQL's Snowball text-search configurations by ISO 639-1 language code. A language without one is
 * analysed with `simple` (lower-cased words, no stemming, no stop words). Which of these a server has
 * depends on its PostgreSQL version, so the caller passes the configurations the database reports.
 */
const SNOWBALL_CONFIGS: Readonly<Record<string, string>> = Object.freeze({
  ar: 'arabic',
  ca: 'catalan',
  da: 'danish',
  de: 'german',
  el: 'greek',
  en: 'english',
  es: 'spanish',
  et: 'estonian',
  eu: 'basque',
  fi: 'finnish',
  fr: 'french',
  ga: 'irish',
  hi: 'hindi',
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

export const SIMPLE_CONFIG = 'simple';

/**
 * The text-search configuration for a language: its Snowball configuration when the database has it,
 * `simple` otherwise (an unknown or undetected language, Chinese, Japanese, Thai, …).
 */
export function textSearchConfig(
  language: string | null | undefined,
  available: ReadonlySet<string>,
): string {
  if (!language) return SIMPLE_CONFIG;
  const config = SNOWBALL_CONFIGS[language.toLowerCase().split(/[-_]/)[0]];
  return config && available.has(config) ? config : SIMPLE_CONFIG;
}
