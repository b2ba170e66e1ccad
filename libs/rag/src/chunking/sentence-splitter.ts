import { isWhitespace, trimSpan } from './text-span';
import type { TextSpan } from './text-span';

export interface SentenceSplitterOptions {
  /**
   * Tokens ending in a period after which a sentence never ends. Matched exactly or with the first letter
   * capitalised (so `e.g.` also covers `E.g.`). Multi-word entries such as `et al.` match across any whitespace.
   */
  abbreviations?: readonly string[];
}

/**
 * Abbreviations that do not end a sentence even when followed by a capitalised word or a number.
 *
 * `etc.` is deliberately absent: it frequently ends a sentence, and a following lowercase word never starts a
 * new sentence anyway, so `etc. and more` stays together while `etc. Next` is split.
 */
export const DEFAULT_ABBREVIATIONS: readonly string[] = Object.freeze([
  'e.g.',
  'i.e.',
  'Dr.',
  'Mr.',
  'Mrs.',
  'Ms.',
  'Prof.',
  'Fig.',
  'Figs.',
  'Eq.',
  'Eqs.',
  'et al.',
  'vs.',
  'approx.',
  'No.',
  'Nos.',
  'Vol.',
  'Vols.',
  'pp.',
  'cf.',
  'St.',
  'Mt.',
  'Jr.',
  'Sr.',
  'U.S.',
]);

/** Full-width terminators of Chinese and Japanese: a sentence ends there even with no space after it. */
const CJK_TERMINATORS = new Set(['。', '！', '？', '；']);
const TERMINATORS = new Set(['.', '!', '?', '…', ...CJK_TERMINATORS]);
const CLOSERS = new Set(['"', "'", '”', '’', '»', ')', ']', '}', '」', '』', '）', '】', '》']);
const SENTENCE_OPENER = /^[\p{Lu}\p{Lt}\p{N}"'“‘«([{]$/u;
const LEADING_OPENERS = /^[("'“‘«[{]+/u;
const SINGLE_INITIAL = /^\p{Lu}\.$/u;
const LIST_NUMBER = /^\d{1,9}\.$/;
/** A line holding only whitespace between two line breaks separates paragraphs. */
const PARAGRAPH_BREAK = /\n[^\S\n]*\n(?:[^\S\n]*\n)*/g;

interface AbbreviationMatcher {
  variants: ReadonlySet<string>;
  maxWords: number;
}

const matcherCache = new WeakMap<readonly string[], AbbreviationMatcher>();

function buildMatcher(abbreviations: readonly string[]): AbbreviationMatcher {
  const cached = matcherCache.get(abbreviations);
  if (cached) return cached;
  const variants = new Set<string>();
  let maxWords = 1;
  for (const raw of abbreviations) {
    const words = raw
      .trim()
      .split(/\s+/)
      .filter((word) => word.length > 0);
    if (words.length === 0) continue;
    const normalized = words.join(' ');
    variants.add(normalized);
    variants.add(normalized.charAt(0).toUpperCase() + normalized.slice(1));
    maxWords = Math.max(maxWords, words.length);
  }
  const matcher = { variants, maxWords };
  matcherCache.set(abbreviations, matcher);
  return matcher;
}

/**
 * True when the period at `index` belongs to an abbreviation, an initial or a list number rather than ending
 * a sentence. Only looks inside the paragraph starting at `paragraphStart`.
 */
function isNonTerminalPeriod(
  text: string,
  index: number,
  paragraphStart: number,
  matcher: AbbreviationMatcher,
): boolean {
  const tokens: string[] = [];
  let tokenEnd = index + 1;
  let firstTokenStart = index;
  while (tokens.length < matcher.maxWords && tokenEnd > paragraphStart) {
    let tokenStart = tokenEnd;
    while (tokenStart > paragraphStart && !isWhitespace(text[tokenStart - 1])) tokenStart--;
    if (tokenStart === tokenEnd) break;
    if (tokens.length === 0) firstTokenStart = tokenStart;
    tokens.unshift(text.slice(tokenStart, tokenEnd));
    tokenEnd = tokenStart;
    while (tokenEnd > paragraphStart && isWhitespace(text[tokenEnd - 1])) tokenEnd--;
  }
  const lastToken = tokens[tokens.length - 1] ?? '';
  if (SINGLE_INITIAL.test(lastToken.replace(LEADING_OPENERS, ''))) return true;
  if (LIST_NUMBER.test(lastToken) && isAtLineStart(text, firstTokenStart, paragraphStart)) return true;
  for (let count = 1; count <= tokens.length; count++) {
    const candidate = tokens
      .slice(tokens.length - count)
      .join(' ')
      .replace(LEADING_OPENERS, '');
    if (matcher.variants.has(candidate)) return true;
  }
  return false;
}

function isAtLineStart(text: string, index: number, paragraphStart: number): boolean {
  let cursor = index;
  while (cursor > paragraphStart && (text[cursor - 1] === ' ' || text[cursor - 1] === '\t')) cursor--;
  return cursor === paragraphStart || text[cursor - 1] === '\n';
}

function startsSentence(text: string, index: number): boolean {
  const codePoint = text.codePointAt(index);
  return codePoint !== undefined && SENTENCE_OPENER.test(String.fromCodePoint(codePoint));
}

function splitParagraph(
  text: string,
  paragraphStart: number,
  paragraphEnd: number,
  matcher: AbbreviationMatcher,
  spans: TextSpan[],
): void {
  let sentenceStart = paragraphStart;
  let index = paragraphStart;
  while (index < paragraphEnd) {
    if (!TERMINATORS.has(text[index])) {
      index++;
      continue;
    }
    let afterTerminators = index;
    while (afterTerminators < paragraphEnd && TERMINATORS.has(text[afterTerminators])) {
      afterTerminators++;
    }
    let boundary = afterTerminators;
    while (boundary < paragraphEnd && CLOSERS.has(text[boundary])) boundary++;
    let next = boundary;
    while (next < paragraphEnd && isWhitespace(text[next])) next++;

    const endsCjkSentence = CJK_TERMINATORS.has(text[afterTerminators - 1]) && next < paragraphEnd;
    const isBoundary =
      endsCjkSentence ||
      (next > boundary &&
        next < paragraphEnd &&
        startsSentence(text, next) &&
        !(
          afterTerminators - index === 1 &&
          text[index] === '.' &&
          isNonTerminalPeriod(text, index, paragraphStart, matcher)
        ));
    if (isBoundary) {
      const span = trimSpan(text, sentenceStart, boundary);
      if (span) spans.push(span);
      sentenceStart = next;
      index = next;
    } else {
      index = boundary;
    }
  }
  const span = trimSpan(text, sentenceStart, paragraphEnd);
  if (span) spans.push(span);
}

/**
 * Splits text into sentence spans in document order. Spans never start or end with whitespace; the whitespace
 * between sentences is not covered. Sentences end at `.`, `!`, `?` or `…` (plus closing quotes or brackets)
 * followed by whitespace and an uppercase letter, digit, quote or opening bracket; at the full-width
 * `。`, `！`, `？` and `；` of Chinese and Japanese (plus closing quotes or brackets) whatever follows; and
 * at blank lines.
 * A single line break inside a paragraph does not end a sentence.
 */
export function splitSentences(text: string, options: SentenceSplitterOptions = {}): TextSpan[] {
  const matcher = buildMatcher(options.abbreviations ?? DEFAULT_ABBREVIATIONS);
  const spans: TextSpan[] = [];
  let paragraphStart = 0;
  for (const match of text.matchAll(PARAGRAPH_BREAK)) {
    splitParagraph(text, paragraphStart, match.index, matcher, spans);
    paragraphStart = match.index + match[0].length;
  }
  splitParagraph(text, paragraphStart, text.length, matcher, spans);
  return spans;
}
