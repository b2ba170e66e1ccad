/**
 * Scripts written without spaces between words. PostgreSQL's text-search parser takes a whole run of
 * such letters as one token, so these runs are cut into words before `to_tsvector` sees them.
 * Han covers Chinese and Japanese kanji; Hiragana and Katakana the rest of Japanese.
 */
const NO_SPACE_RUN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30FC]+/gu;
const HAS_NO_SPACE_LETTER =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const IDEOGRAPHIC = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * How a run of a script without spaces becomes words:
 * - `icu`: the word boundaries of ICU's dictionaries (Node's built-in `Intl.Segmenter`, granularity word);
 * - `bigram`: overlapping pairs of characters (a run of one character stays a word).
 */
export type Segmentation = 'icu' | 'bigram';

/**
 * Measured on XQuAD zh (240 passages, 1,190 questions; BM25 nDCG@10): see the README, "Retrieval in
 * other languages".
 */
export const DEFAULT_SEGMENTATION: Segmentation = 'icu';

const segmenters = new Map<string, Intl.Segmenter>();

function segmenterFor(run: string): Intl.Segmenter {
  // ICU picks its dictionary by the characters, not the locale; the locale only chooses the rules for
  // the characters around them. Japanese for kana, Chinese for Han alone, Thai otherwise.
  const locale = /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(run)
    ? 'ja'
    : IDEOGRAPHIC.test(run)
      ? 'zh'
      : 'th';
  let segmenter = segmenters.get(locale);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, segmenter);
  }
  return segmenter;
}

function icuWords(run: string): string[] {
  const words: string[] = [];
  for (const segment of segmenterFor(run).segment(run)) {
    if (segment.isWordLike) words.push(segment.segment);
  }
  return words;
}

function bigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length < 2) return chars;
  const grams: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) grams.push(chars[i] + chars[i + 1]);
  return grams;
}

/** True when the text holds a letter of a script written without spaces. */
export function hasNoSpaceScript(text: string): boolean {
  return HAS_NO_SPACE_LETTER.test(text);
}

/**
 * The text with every run of a script written without spaces replaced by its words, separated by
 * spaces; everything else is left as it is (so Latin, Cyrillic or Arabic text comes back unchanged, and
 * at the cost of one regular-expression test). The same function analyses documents and queries.
 */
export function segmentWords(text: string, segmentation: Segmentation = DEFAULT_SEGMENTATION): string {
  if (!hasNoSpaceScript(text)) return text;
  const split = segmentation === 'bigram' ? bigrams : icuWords;
  return text.replace(NO_SPACE_RUN, (run) => ` ${split(run).join(' ')} `);
}
