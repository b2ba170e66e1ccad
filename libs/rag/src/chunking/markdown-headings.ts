import { isWhitespace, trimEndWhere } from '../text/trim-chars';

/** A Markdown heading and the source lines it occupies. */
export interface MarkdownHeading {
  /** 1 to 6; setext headings are 1 (`===`) or 2 (`---`). */
  level: number;
  /**
   * Plain title: emphasis, inline code, links, badges, images, HTML tags and entities and closing `#`s
   * removed; '' for an empty heading.
   */
  title: string;
  /** Offset of the first character of the heading's first line. */
  start: number;
  /** Offset just after the heading's last line, including its line break. */
  end: number;
}

interface Line {
  start: number;
  /** End of the content, before the line break. */
  end: number;
  /** Start of the next line. */
  next: number;
  text: string;
}

/**
 * The title is everything after the opening `#`s; `[^]*` (not `.*?` before `[ \t]*$`, which is quadratic on
 * a title with a long run of spaces inside) always reaches the end, so the match never backtracks.
 * Trailing blanks and the optional closing `#`s are removed by `atxTitle`, scanning from the end.
 */
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+([^]*))?$/;
/** `[^]*`, not `.*`: `.` stops at U+2028 and the like, and `$` then fails after a quadratic retry. */
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})([^]*)$/;
/**
 * Headings longer than this are cut before their inline Markdown is removed: the emphasis patterns below
 * are quadratic in the worst case, bounded this way to well under a millisecond per heading.
 */
export const MAX_HEADING_SOURCE_CHARS = 1000;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** Lines that start a block which cannot turn into a setext heading: list items, block quotes, indented code. */
const NON_PARAGRAPH_BLOCK = /^(?: {0,3}(?:[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|>)| {4}|\t)/;
/** Blocks that may start right below a paragraph line without a blank line in between. */
const INTERRUPTING_BLOCK = /^ {0,3}(?:[-+*][ \t]+\S|1[.)][ \t]+\S|>)/;

function splitLines(source: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < source.length) {
    const newline = source.indexOf('\n', start);
    const next = newline === -1 ? source.length : newline + 1;
    let end = newline === -1 ? source.length : newline;
    if (end > start && source[end - 1] === '\r') end--;
    lines.push({ start, end, next, text: source.slice(start, end) });
    start = next;
  }
  return lines;
}

/** Reduces a heading's inline Markdown to plain text. */
export function cleanHeadingTitle(raw: string): string {
  let title = raw
    .slice(0, MAX_HEADING_SOURCE_CHARS)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(`+)([^`]*?)\1/g, (_match, _ticks: string, code: string) => code.trim());
  let previous: string;
  do {
    previous = title;
    title = title
      .replace(/(?<!\\)(\*{1,3})(?=\S)(.*?\S)(?<!\\)\1/g, '$2')
      .replace(/(?<![\p{L}\p{N}_\\])(_{1,3})(?=\S)(.*?\S)\1(?![\p{L}\p{N}_])/gu, '$2')
      .replace(/(?<!\\)~~(?=\S)(.*?\S)~~/g, '$1');
  } while (title !== previous);
  return title
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

const INLINE_IMAGE = /!\[([^\]\n]*)\]\([^)\n]*\)/g;
const REFERENCE_IMAGE = /!\[([^\]\n]*)\]\[[^\]\n]*\]/g;
const EMPTY_LINK = /\[\s*\](?:\([^)\n]*\)|\[[^\]\n]*\])/g;
const REFERENCE_LINK = /\[([^\]\n]+)\]\[[^\]\n]*\]/g;
/**
 * Tags of the HTML that READMEs put in headings (badges, logos, anchors, line breaks): only these are
 * removed, so a type's parameters (`Vec<T>`, `Map<K, V>`) are never taken for a tag.
 */
const HTML_TAG =
  /<\/?(?:a|img|br|p|span|div|sup|sub|b|i|em|strong|small|big|kbd|code|picture|source|center|font|h[1-6]|details|summary|u|s|del|ins|mark)\b[^>\n]{0,300}>/gi;
const ALT_OF_HTML_IMAGE = /<img\b[^>\n]*\balt\s*=\s*["']([^"'\n]*)["']/i;
const ENTITIES: Record<string, string> = {
  nbsp: ' ',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  apos: "'",
};
const ENTITY = /&(nbsp|amp|lt|gt|quot|#39|apos);/g;
/** Inline code spans: their text is kept as written, tags and entities included. */
const CODE_SPAN = /(`+)[^`]*?\1/g;

/** `replace` applied to the text outside inline code spans. */
function outsideCode(text: string, replace: (part: string) => string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(CODE_SPAN)) {
    out += replace(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return out + replace(text.slice(last));
}

/** The first image's alt text (Markdown or HTML), '' without one. */
function firstImageAlt(raw: string): string {
  return (
    [...raw.matchAll(INLINE_IMAGE), ...raw.matchAll(REFERENCE_IMAGE)]
      .map((match) => match[1].trim())
      .find(Boolean) ??
    ALT_OF_HTML_IMAGE.exec(raw)?.[1]?.trim() ??
    ''
  );
}

/** Badges and images, HTML tags and entities removed; reference links kept as their text. */
function stripMarkup(raw: string): string {
  return outsideCode(raw.slice(0, 4 * MAX_HEADING_SOURCE_CHARS), (part) =>
    part
      .replace(INLINE_IMAGE, ' ')
      .replace(REFERENCE_IMAGE, ' ')
      .replace(EMPTY_LINK, ' ')
      .replace(REFERENCE_LINK, '$1')
      .replace(HTML_TAG, ' ')
      .replace(ENTITY, (_match, name: string) => ENTITIES[name]),
  );
}

const SEPARATOR_EDGES = /^[\s|·•:–—-]+|[\s|·•:–—-]+$/g;

/**
 * A title as a person reads it: badges and images, HTML tags, links (kept as their text), emphasis and
 * inline code removed, spaces collapsed. A title that is only an image (a logo) is its alt text.
 */
export function cleanDocumentTitle(raw: string): string {
  const title = cleanHeadingTitle(stripMarkup(raw)).replace(SEPARATOR_EDGES, '').trim();
  return title || cleanHeadingTitle(firstImageAlt(raw));
}

/**
 * A heading's text as a person reads it, cleaned as titles are (cleanDocumentTitle): "Prometheus client
 * for node.js" for a heading followed by a badge, "pino-http" for `pino-http&nbsp;&nbsp;[![Build]…]`.
 * A heading holding no badge, image, tag or entity keeps its edges (`--port`, `-h, --help`).
 */
export function cleanHeadingText(raw: string): string {
  const plain = cleanHeadingTitle(raw);
  const stripped = cleanHeadingTitle(stripMarkup(raw));
  if (stripped === plain) return plain;
  return stripped.replace(SEPARATOR_EDGES, '').trim() || cleanHeadingTitle(firstImageAlt(raw));
}

const isBlank = (character: string): boolean => character === ' ' || character === '\t';

/** An ATX heading's title without trailing blanks and the closing `#` sequence (one preceded by a blank). */
function atxTitle(raw: string | undefined): string {
  const title = trimEndWhere(raw ?? '', isWhitespace);
  const withoutHashes = trimEndWhere(title, (character) => character === '#');
  const closed =
    withoutHashes.length < title.length &&
    (withoutHashes.length === 0 || isBlank(withoutHashes[withoutHashes.length - 1]));
  return cleanHeadingText(closed ? trimEndWhere(withoutHashes, isBlank) : title);
}

type BlockState = { kind: 'none' } | { kind: 'paragraph'; firstLine: number } | { kind: 'other' };

/**
 * Finds ATX (`# Title`) and setext (`Title` over `===` / `---`) headings in document order. Lines inside fenced
 * code blocks (``` or ~~~) are ignored. A setext heading's title is the whole paragraph above the underline.
 */
export function parseMarkdownHeadings(source: string): MarkdownHeading[] {
  const lines = splitLines(source);
  const headings: MarkdownHeading[] = [];
  let fence: { char: string; length: number } | null = null;
  let state: BlockState = { kind: 'none' };

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const { text } = line;
    if (fence) {
      const close = FENCE_CLOSE.exec(text);
      if (close && close[1][0] === fence.char && close[1].length >= fence.length) fence = null;
      continue;
    }
    if (text.trim() === '') {
      state = { kind: 'none' };
      continue;
    }
    const open = FENCE_OPEN.exec(text);
    if (open && !(open[1][0] === '`' && open[2].includes('`'))) {
      fence = { char: open[1][0], length: open[1].length };
      state = { kind: 'none' };
      continue;
    }
    const atx = ATX_HEADING.exec(text);
    if (atx) {
      headings.push({ level: atx[1].length, title: atxTitle(atx[2]), start: line.start, end: line.next });
      state = { kind: 'none' };
      continue;
    }
    const underline = state.kind === 'paragraph' ? SETEXT_UNDERLINE.exec(text) : null;
    if (state.kind === 'paragraph' && underline) {
      const paragraph = lines.slice(state.firstLine, index);
      headings.push({
        level: underline[1][0] === '=' ? 1 : 2,
        title: cleanHeadingText(paragraph.map((paragraphLine) => paragraphLine.text.trim()).join(' ')),
        start: paragraph[0].start,
        end: line.next,
      });
      state = { kind: 'none' };
      continue;
    }
    if (THEMATIC_BREAK.test(text)) {
      state = { kind: 'none' };
      continue;
    }
    if (state.kind === 'none') {
      state = NON_PARAGRAPH_BLOCK.test(text) ? { kind: 'other' } : { kind: 'paragraph', firstLine: index };
    } else if (state.kind === 'paragraph' && INTERRUPTING_BLOCK.test(text)) {
      state = { kind: 'other' };
    }
  }
  return headings;
}
