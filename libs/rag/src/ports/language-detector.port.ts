/**
 * Names the language a text is written in: an ISO 639-1 code ('en', 'de', 'zh', …), or null when the
 * text is too short or too ambiguous to tell.
 */
export interface LanguageDetector {
  detect(text: string): string | null;
}
