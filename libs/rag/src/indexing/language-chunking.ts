import type { ChunkingSettings } from './chunk-document';

/**
 * Characters of Chinese or Japanese text per character of English text saying the same thing. Measured
 * on XQuAD, whose 240 passages are translations of each other: the Chinese passages are 0.322 times the
 * length of the English ones in characters (median 0.317; German 1.139, Spanish 1.126).
 */
export const IDEOGRAPHIC_CHARS_PER_LATIN_CHAR = 0.32;

/** Languages written mostly in Han characters and kana, whose characters each carry a word or a syllable. */
const IDEOGRAPHIC_LANGUAGES: ReadonlySet<string> = new Set(['zh', 'ja']);

/**
 * The chunking for a document in `language`: the configured sizes (chosen on English text) scaled by
 * how many characters the language needs for the same content, so a Chinese chunk holds about as much
 * as an English one. Scripts whose letters are alphabetic (Latin, Cyrillic, Arabic, Thai, …) keep the
 * configured sizes.
 */
export function chunkingForLanguage(
  settings: ChunkingSettings,
  language: string | null | undefined,
): ChunkingSettings {
  if (settings.unit !== 'chunk' || !language || !IDEOGRAPHIC_LANGUAGES.has(language)) return settings;
  const maxChars = Math.max(1, Math.round(settings.maxChars * IDEOGRAPHIC_CHARS_PER_LATIN_CHAR));
  const overlapChars = Math.min(
    Math.round(settings.overlapChars * IDEOGRAPHIC_CHARS_PER_LATIN_CHAR),
    maxChars - 1,
  );
  return { ...settings, maxChars, overlapChars: Math.max(0, overlapChars) };
}
