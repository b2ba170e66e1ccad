import { MARKER_GROUP, isMarkerGroup, rewriteMarkerGroup } from './citation-markers';
import { isWhitespace, trailingChars, trimEndWhere } from '../text/trim-chars';

/** What a link in an answer becomes: answers carry no links other than their citation markers. */
export const LINK_REMOVED = '(link removed)';

/** A Markdown link or image: `[text](url)` / `![alt](url "title")`. */
const LINK_SOURCE = String.raw`\[([^[\]\n]{0,300})\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"\n]*")?\)`;
const IMAGE = new RegExp(`!${LINK_SOURCE}`, 'g');
const LINK = new RegExp(LINK_SOURCE, 'g');
const HTML_LINK_TAG = /<\/?a\b[^<>]*>|<img\b[^<>]*>/gi;
const AUTOLINK = /<(?:(?:https?|ftp):\/\/|mailto:|www\.)[^<>\s]*>/gi;
const BARE_URL = /\b(?:(?:https?|ftp):\/\/|www\.)[^\s<>()[\]"'`]+/gi;
/** Constructs a streamed cut must never split (links, bracket groups, tags). */
const PROTECTED = new RegExp(`!?${LINK_SOURCE}|\\[[^[\\]\\n]{0,300}\\]|<[^<>\\n]{0,500}>`, 'g');
const REASONING_TAGS = ['think', 'thinking', 'reasoning'];
/** Places a streamed cut may fall after, for scripts written without spaces. */
const CJK_BREAKS = new Set(['。', '！', '？', '，', '、', '；', '：']);

/**
 * Cleans answer text as it streams, so no client ever sees what the answer must not carry:
 * - citation markers naming no passage (`[9]` with 3 passages) are removed and reported, valid ones are
 *   written canonically (`[1, 2]` → `[1][2]`);
 * - links are neutralised: Markdown links keep their text, images their alt text, HTML link tags are
 *   removed, and bare URLs become LINK_REMOVED;
 * - a leading reasoning block (`<think>…</think>`) is dropped.
 * Text is held back while it could still be the start of such a construct (an open `[`, `<`, or the
 * last word, which could be a URL), so `push` returns only text that will never change.
 */
export class AnswerSanitizer {
  private pending = '';
  private output = '';
  private reasoningChecked = false;
  /** Markers that named no passage, each once, in order of appearance. */
  readonly droppedMarkers: number[] = [];
  /** Valid markers, each once, in order of first appearance. */
  readonly citedMarkers: number[] = [];
  linksRemoved = 0;

  constructor(private readonly passageCount: number) {}

  /** Everything emitted so far: the clean answer. */
  get text(): string {
    return this.output;
  }

  /** Feed the next piece of model output; returns the clean text that is now final (maybe ''). */
  push(piece: string): string {
    this.pending += piece;
    return this.drain(false);
  }

  /** The model finished: returns the rest of the clean text. */
  end(): string {
    return this.drain(true);
  }

  private drain(final: boolean): string {
    if (!this.skipReasoning(final)) return '';
    const cut = final ? this.pending.length : safeCut(this.pending);
    if (cut <= 0) return '';
    const segment = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    let clean = this.clean(segment);
    if (!this.output) clean = clean.replace(/^\s+/, '');
    if (final) clean = trimEndWhere(clean, isWhitespace);
    this.output += clean;
    return clean;
  }

  /** False while a leading reasoning block may still be arriving; drops it once complete. */
  private skipReasoning(final: boolean): boolean {
    if (this.reasoningChecked) return true;
    const trimmed = this.pending.trimStart();
    const open = /^<(think|thinking|reasoning)>/i.exec(trimmed);
    if (open) {
      const close = trimmed.search(new RegExp(`</${open[1]}\\s*>`, 'i'));
      if (close < 0) {
        if (!final) return false;
        this.pending = ''; // cut off by the token limit: nothing usable follows
      } else {
        const closing = new RegExp(`</${open[1]}\\s*>`, 'i').exec(trimmed.slice(close))!;
        this.pending = trimmed.slice(close + closing[0].length);
      }
      this.reasoningChecked = true;
      return true;
    }
    const lower = trimmed.toLowerCase();
    const couldOpen = REASONING_TAGS.some((tag) => `<${tag}>`.startsWith(lower));
    if (!final && (trimmed === '' || couldOpen)) return false;
    this.reasoningChecked = true;
    return true;
  }

  private clean(segment: string): string {
    const link = (): void => {
      this.linksRemoved += 1;
    };
    const withoutLinks = segment
      .replace(IMAGE, (_match, alt: string) => (link(), alt))
      .replace(LINK, (_match, text: string) => (link(), isMarkerGroup(text) ? `[${text}]` : text))
      .replace(HTML_LINK_TAG, (tag: string) => (/^<a\b|^<img\b/i.test(tag) && link(), ''))
      .replace(AUTOLINK, () => (link(), LINK_REMOVED))
      .replace(BARE_URL, (url: string) => {
        link();
        const trailing = trailingChars(url, '.,;:!?');
        return LINK_REMOVED + trailing;
      });
    return replaceMarkerGroups(withoutLinks, (inner) => {
      const rewrite = rewriteMarkerGroup(inner, this.passageCount);
      for (const marker of rewrite.valid)
        if (!this.citedMarkers.includes(marker)) this.citedMarkers.push(marker);
      for (const marker of rewrite.invalid) {
        if (!this.droppedMarkers.includes(marker)) this.droppedMarkers.push(marker);
      }
      return rewrite.replacement;
    });
  }
}

const isBlank = (character: string): boolean => character === ' ' || character === '\t';

/**
 * Each citation marker group replaced by what `rewrite` makes of its inner text; a group rewritten to ''
 * takes the blanks before it along. (A pattern with a leading `[ \t]*` did the same, in quadratic time
 * on a long run of blanks that no marker follows.)
 */
function replaceMarkerGroups(text: string, rewrite: (inner: string) => string): string {
  let output = '';
  let last = 0;
  for (const match of text.matchAll(MARKER_GROUP)) {
    const replacement = rewrite(match[1]);
    const before = text.slice(last, match.index);
    output += replacement ? before + replacement : trimEndWhere(before, isBlank);
    last = match.index + match[0].length;
  }
  return output + text.slice(last);
}

/** Clean a whole answer at once (the same rules as streaming). */
export function sanitizeAnswer(
  text: string,
  passageCount: number,
): { text: string; citedMarkers: number[]; droppedMarkers: number[]; linksRemoved: number } {
  const sanitizer = new AnswerSanitizer(passageCount);
  sanitizer.push(text);
  sanitizer.end();
  return {
    text: sanitizer.text,
    citedMarkers: [...sanitizer.citedMarkers],
    droppedMarkers: [...sanitizer.droppedMarkers],
    linksRemoved: sanitizer.linksRemoved,
  };
}

/**
 * Where streamed text may be cut: before the last run of whitespace that is outside every complete
 * construct and before any construct still open, so the held-back tail (the last word, which may
 * be a URL, with the space before it, which a dropped marker takes along) is cleaned whole later.
 */
export function safeCut(text: string): number {
  const open = openConstructStart(text);
  const region = open === null ? text : text.slice(0, open);
  const ranges = [...region.matchAll(PROTECTED)].map((m) => [m.index, m.index + m[0].length] as const);
  const inside = (position: number) => ranges.some(([start, end]) => position > start && position < end);
  for (let i = region.length - 1; i >= 0; i--) {
    if (CJK_BREAKS.has(region[i]) && !inside(i + 1)) return i + 1;
    if (!/\s/.test(region[i])) continue;
    let start = i;
    while (start > 0 && /\s/.test(region[start - 1])) start--;
    if (!inside(start)) return start;
    i = start;
  }
  return 0;
}

/** Start of a `[…`, `[…]`, `[…](…` or `<…` at the end of `text` that is not closed yet; null if none. */
function openConstructStart(text: string): number | null {
  let open: number | null = null;
  const bracket = text.lastIndexOf('[');
  if (bracket >= 0 && text.length - bracket <= 2400) {
    const tail = text.slice(bracket);
    const start = bracket > 0 && text[bracket - 1] === '!' ? bracket - 1 : bracket;
    if (
      /^\[[^[\]\n]{0,300}$/.test(tail) ||
      /^\[[^[\]\n]{0,300}\]$/.test(tail) ||
      /^\[[^[\]\n]{0,300}\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"\n]*)?$/.test(tail)
    ) {
      open = start;
    }
  }
  const angle = text.lastIndexOf('<');
  if (angle >= 0 && /^<[^<>\n]{0,500}$/.test(text.slice(angle))) {
    open = open === null ? angle : Math.min(open, angle);
  }
  return open;
}
