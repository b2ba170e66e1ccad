/**
 * The languages a document can be declared in at upload (ISO 639-1 codes): every language the detector
 * names, and those PostgreSQL has a Snowball stemmer for. Any other text is still indexed, with the
 * detected language or none.
 */
export const DOCUMENT_LANGUAGES: readonly string[] = Object.freeze([
  ...['am', 'ar', 'az', 'be', 'bg', 'bn', 'ca', 'cs', 'da', 'de', 'el', 'en', 'es', 'et', 'eu', 'fa'],
  ...['fi', 'fr', 'ga', 'gu', 'he', 'hi', 'hr', 'hu', 'hy', 'id', 'is', 'it', 'ja', 'ka', 'km', 'kn'],
  ...['ko', 'ku', 'lo', 'lt', 'lv', 'ml', 'mr', 'ms', 'my', 'nb', 'ne', 'nl', 'nn', 'no', 'or', 'pa'],
  ...['pl', 'pt', 'ro', 'ru', 'sk', 'sl', 'sq', 'sr', 'sv', 'ta', 'te', 'th', 'tl', 'tr', 'uk', 'ur'],
  ...['vi', 'yi', 'yo', 'zh'],
]);
