/**
 * What a detector says about one text: the language it names (ISO 639-1, or null when it names none),
 * its score for every language it considered (0–1, higher is likelier), and whether it calls its own
 * answer reliable.
 */
export interface LanguageGuess {
  language: string | null;
  scores: Readonly<Record<string, number>>;
  reliable: boolean;
}

/**
 * Names the language a text is written in: an ISO 639-1 code ('en', 'de', 'zh', …), or null when the
 * text is too short or too ambiguous to tell.
 */
export interface LanguageDetector {
  detect(text: string): string | null;
  /** The detector's full answer over a sample of `sampleChars` characters of the text (`languageSample`). */
  guess(text: string, sampleChars?: number): LanguageGuess;
}
