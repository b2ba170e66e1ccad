/**
 * A small Markdown reader for answers: paragraphs (line breaks kept), headings (shown as bold lines),
 * lists (nested, ordered or not), fenced code, block quotes, rules, GFM tables; inline code, emphasis, strike,
 * links and citation markers `[n]`. It builds React elements, never HTML strings: text is always a
 * React text node, so `<script>` in an answer is shown as the characters it is. Links keep only
 * http(s) addresses and open in a new tab without the opener; images show their alt text only.
 *
 * Every inline node keeps its offset in the original answer, so a citation marker knows where it
 * stands (the chat finds the sentence a marker supports from it). Partial input (a streaming answer,
 * an unclosed fence or emphasis) renders as what it is so far. Work is linear in the input: nesting is
 * capped and a delimiter with no closer is not searched for again.
 */
import { createElement, Fragment, type ReactNode } from 'react';

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong' | 'em' | 'del'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] }
  | { type: 'marker'; marker: number; start: number };

export type Block =
  | { type: 'paragraph'; lines: Inline[][] }
  | { type: 'heading'; level: number; content: Inline[] }
  | { type: 'code'; language: string | null; text: string }
  | { type: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { type: 'quote'; blocks: Block[] }
  | { type: 'table'; header: Inline[][]; rows: Inline[][][] }
  | { type: 'rule' };

interface Line {
  text: string;
  /** Where the line's first character sits in the whole answer. */
  offset: number;
}

/** Deeper quotes and lists than this are read as plain paragraphs. */
const MAX_BLOCK_DEPTH = 12;
/** Deeper emphasis than this is read as plain text. */
const MAX_INLINE_DEPTH = 8;

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?/;
const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])([ \t]+|$)/;
/** A table's delimiter row: `| --- | :---: |` (at least one dash per cell). */
const TABLE_RULE = /^ {0,3}\|?(?:\s*:?-+:?\s*\|)*\s*:?-+:?\s*\|?\s*$/;
/** A table has at most this many columns; wider rows keep only these. */
const MAX_TABLE_COLUMNS = 32;

/** The cells of a table line, each parsed inline at its own offset (`\|` stays inside its cell). */
function tableCells(line: Line): Inline[][] {
  const { text } = line;
  let from = text.length - text.trimStart().length;
  let to = text.trimEnd().length;
  if (text[from] === '|') from += 1;
  if (to > from && text[to - 1] === '|' && text[to - 2] !== '\\') to -= 1;
  const cells: Inline[][] = [];
  let start = from;
  for (let i = from; i <= to && cells.length < MAX_TABLE_COLUMNS; i += 1) {
    if (i === to || (text[i] === '|' && text[i - 1] !== '\\')) {
      const raw = text.slice(start, i);
      const lead = raw.length - raw.trimStart().length;
      cells.push(parseInline(raw.trim(), line.offset + start + lead));
      start = i + 1;
    }
  }
  return cells;
}

function isTableStart(lines: Line[], i: number): boolean {
  const next = lines[i + 1];
  return (
    lines[i].text.includes('|') && next !== undefined && next.text.includes('|') && TABLE_RULE.test(next.text)
  );
}

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

function isBlank(line: Line): boolean {
  return line.text.trim() === '';
}

function startsBlock(text: string): boolean {
  return (
    FENCE.test(text) || HEADING.test(text) || RULE.test(text) || QUOTE.test(text) || LIST_ITEM.test(text)
  );
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let offset = 0;
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    lines.push({ text: line, offset });
    offset += raw.length + 1;
  }
  return lines;
}

/** Removes up to `count` leading spaces, keeping the offset true. */
function dedent(line: Line, count: number): Line {
  const cut = Math.min(count, indentOf(line.text));
  return { text: line.text.slice(cut), offset: line.offset + cut };
}

function parseBlocks(lines: Line[], depth: number): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line.text);
    if (fence) {
      const [, indent, marker, language] = fence;
      const body: string[] = [];
      i += 1;
      while (i < lines.length) {
        const closing = lines[i].text.trim();
        if (closing.startsWith(marker) && closing.split('').every((c) => c === marker[0])) {
          i += 1;
          break;
        }
        body.push(dedent(lines[i], indent.length).text);
        i += 1;
      }
      blocks.push({
        type: 'code',
        language: /^[\w+#.-]{1,20}$/.test(language) ? language : null,
        text: body.join('\n'),
      });
      continue;
    }
    const heading = HEADING.exec(line.text);
    if (heading) {
      const content = heading[2] ?? '';
      const at = content ? line.text.indexOf(content, heading[1].length) : 0;
      blocks.push({
        type: 'heading',
        level: heading[1].length,
        content: parseInline(content, line.offset + Math.max(0, at)),
      });
      i += 1;
      continue;
    }
    if (RULE.test(line.text)) {
      blocks.push({ type: 'rule' });
      i += 1;
      continue;
    }
    if (depth < MAX_BLOCK_DEPTH && QUOTE.test(line.text)) {
      const inner: Line[] = [];
      while (i < lines.length && QUOTE.test(lines[i].text)) {
        const cut = (QUOTE.exec(lines[i].text) as RegExpExecArray)[0].length;
        inner.push({ text: lines[i].text.slice(cut), offset: lines[i].offset + cut });
        i += 1;
      }
      blocks.push({ type: 'quote', blocks: parseBlocks(inner, depth + 1) });
      continue;
    }
    if (isTableStart(lines, i)) {
      const header = tableCells(line);
      const rows: Inline[][][] = [];
      i += 2;
      while (
        i < lines.length &&
        !isBlank(lines[i]) &&
        lines[i].text.includes('|') &&
        !startsBlock(lines[i].text)
      ) {
        const cells = tableCells(lines[i]).slice(0, header.length);
        while (cells.length < header.length) cells.push([]);
        rows.push(cells);
        i += 1;
      }
      blocks.push({ type: 'table', header, rows });
      continue;
    }
    if (depth < MAX_BLOCK_DEPTH && LIST_ITEM.test(line.text)) {
      const [list, next] = parseList(lines, i, depth);
      blocks.push(list);
      i = next;
      continue;
    }
    const paragraph: Line[] = [line];
    i += 1;
    while (i < lines.length && !isBlank(lines[i]) && !startsBlock(lines[i].text)) {
      paragraph.push(lines[i]);
      i += 1;
    }
    blocks.push({
      type: 'paragraph',
      lines: paragraph.map((item) => {
        const lead = indentOf(item.text);
        return parseInline(item.text.slice(lead).trimEnd(), item.offset + lead);
      }),
    });
  }
  return blocks;
}

function parseList(lines: Line[], from: number, depth: number): [Block, number] {
  const first = LIST_ITEM.exec(lines[from].text) as RegExpExecArray;
  const baseIndent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const start = ordered ? Number.parseInt(first[2], 10) : 1;
  const items: Line[][] = [];
  let contentIndent = 0;
  let i = from;
  while (i < lines.length) {
    const line = lines[i];
    const item = LIST_ITEM.exec(line.text);
    if (item && item[1].length <= baseIndent + 1 && /\d/.test(item[2]) === ordered) {
      const cut = item[0].length;
      contentIndent = item[1].length + item[2].length + Math.max(1, Math.min(item[3].length, 4));
      items.push([{ text: line.text.slice(cut), offset: line.offset + cut }]);
      i += 1;
      continue;
    }
    if (isBlank(line)) {
      // A blank line continues the list only when the list (or this item) goes on after it.
      let next = i + 1;
      while (next < lines.length && isBlank(lines[next])) next += 1;
      const after = lines[next];
      const continues =
        after !== undefined &&
        (indentOf(after.text) >= contentIndent ||
          (LIST_ITEM.test(after.text) &&
            indentOf(after.text) <= baseIndent + 1 &&
            /\d/.test((LIST_ITEM.exec(after.text) as RegExpExecArray)[2]) === ordered));
      if (!continues) break;
      items[items.length - 1].push(line);
      i += 1;
      continue;
    }
    if (indentOf(line.text) > baseIndent) {
      items[items.length - 1].push(dedent(line, contentIndent));
      i += 1;
      continue;
    }
    if (!startsBlock(line.text) && !isBlank(lines[i - 1])) {
      // A lazy continuation of the item's last paragraph.
      items[items.length - 1].push(line);
      i += 1;
      continue;
    }
    break;
  }
  return [
    { type: 'list', ordered, start, items: items.map((itemLines) => parseBlocks(itemLines, depth + 1)) },
    i,
  ];
}

// --- inline -------------------------------------------------------------------------------------

const MARKER = /^\[(\d{1,2}(?:\s*,\s*\d{1,2})*)\]/;
const URL_IN_TEXT = /^https?:\/\/[^\s<>()[\]\uE000\uE001]*[^\s<>()[\].,;:!?'"*_~\uE000\uE001]/;
const EMPHASIS = ['***', '___', '**', '__', '~~', '*', '_'] as const;

/** An http(s) address, normalised; anything else (javascript:, data:, relative) is refused. */
export function safeHref(raw: string): string | null {
  const trimmed = raw
    .replace(/[\uE000\uE001]/g, '')
    .trim()
    .replace(/^<|>$/g, '');
  if (!/^https?:\/\//i.test(trimmed)) return null;
  try {
    const url = new URL(trimmed);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}]/u.test(char);
}

/** Reads `[text](href)` at `at` (text may hold brackets one level deep); null when it is not one. */
function readLink(text: string, at: number): { label: string; href: string; end: number } | null {
  let depth = 0;
  let close = -1;
  for (let i = at; i < text.length && i < at + 1000; i += 1) {
    const char = text[i];
    if (char === '\\') i += 1;
    else if (char === '[') depth += 1;
    else if (char === ']') {
      depth -= 1;
      if (depth === 0) {
        close = i;
        break;
      }
    } else if (char === '\n') return null;
  }
  if (close === -1 || text[close + 1] !== '(') return null;
  // The target may hold balanced parentheses (`(https://x.example/a_(b))`).
  let end = -1;
  let parens = 0;
  for (let i = close + 2; i < text.length && i < close + 2002; i += 1) {
    if (text[i] === '(') parens += 1;
    else if (text[i] === ')') {
      if (parens === 0) {
        end = i;
        break;
      }
      parens -= 1;
    } else if (text[i] === '\n') return null;
  }
  if (end === -1) return null;
  const target = text.slice(close + 2, end).trim();
  const href = target.split(/\s+/)[0] ?? '';
  return { label: text.slice(at + 1, close), href, end: end + 1 };
}

interface Scope {
  text: string;
  base: number;
  depth: number;
  /** Delimiters already known to have no closer in this scope. */
  unclosed: Set<string>;
}

function findCloser(scope: Scope, delimiter: string, from: number): number {
  if (scope.unclosed.has(delimiter)) return -1;
  const { text } = scope;
  const char = delimiter[0];
  let at = from;
  while (at < text.length) {
    const found = text.indexOf(delimiter, at);
    if (found === -1) break;
    let run = delimiter.length;
    while (text[found + run] === char) run += 1;
    const before = text[found - 1];
    const after = text[found + run];
    const rightFlanking = found > from && before !== undefined && !/\s/.test(before) && before !== '\\';
    const intraword = char === '_' && isWordChar(after);
    // A run of exactly the delimiter closes; so does a run of three (`**a *b***`), at its end.
    if (rightFlanking && !intraword && (run === delimiter.length || run === 3)) {
      return found + run - delimiter.length;
    }
    at = found + run;
  }
  scope.unclosed.add(delimiter);
  return -1;
}

function inlineIn(scope: Scope): Inline[] {
  const { text, base } = scope;
  const out: Inline[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer) out.push({ type: 'text', text: buffer });
    buffer = '';
  };
  const nested = (start: number, end: number): Inline[] =>
    scope.depth >= MAX_INLINE_DEPTH
      ? [{ type: 'text', text: text.slice(start, end) }]
      : inlineIn({
          text: text.slice(start, end),
          base: base + start,
          depth: scope.depth + 1,
          unclosed: new Set(),
        });

  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '\\' && i + 1 < text.length && /[\\`*_~[\]()#>!<.+-]/.test(text[i + 1])) {
      buffer += text[i + 1];
      i += 2;
      continue;
    }
    if (char === '`') {
      let run = 1;
      while (text[i + run] === '`') run += 1;
      const fence = '`'.repeat(run);
      const close = scope.unclosed.has(fence) ? -1 : text.indexOf(fence, i + run);
      if (close !== -1 && text[close + run] !== '`') {
        flush();
        const inner = text.slice(i + run, close);
        out.push({ type: 'code', text: /^ .* $/.test(inner) ? inner.slice(1, -1) : inner });
        i = close + run;
        continue;
      }
      if (close === -1) scope.unclosed.add(fence);
      buffer += fence;
      i += run;
      continue;
    }
    if (char === '[' || (char === '!' && text[i + 1] === '[')) {
      const image = char === '!';
      const marker = image ? null : MARKER.exec(text.slice(i, i + 40));
      if (marker && text[i + marker[0].length] !== '(') {
        flush();
        for (const part of marker[1].split(',')) {
          out.push({ type: 'marker', marker: Number(part.trim()), start: base + i });
        }
        i += marker[0].length;
        continue;
      }
      const link = readLink(text, image ? i + 1 : i);
      if (link) {
        flush();
        const labelStart = (image ? i + 1 : i) + 1;
        const href = safeHref(link.href);
        if (image) out.push({ type: 'text', text: link.label });
        else if (href)
          out.push({ type: 'link', href, children: nested(labelStart, labelStart + link.label.length) });
        else out.push(...nested(labelStart, labelStart + link.label.length));
        i = link.end;
        continue;
      }
    }
    if (char === '<') {
      const auto = /^<(https?:\/\/[^\s<>]+)>/.exec(text.slice(i, i + 2000));
      const href = auto ? safeHref(auto[1]) : null;
      if (auto && href) {
        flush();
        out.push({ type: 'link', href, children: [{ type: 'text', text: auto[1] }] });
        i += auto[0].length;
        continue;
      }
    }
    if (
      (char === 'h' || char === 'H') &&
      !isWordChar(text[i - 1]) &&
      /^https?:\/\//i.test(text.slice(i, i + 8))
    ) {
      const bare = URL_IN_TEXT.exec(text.slice(i, i + 2000));
      const href = bare ? safeHref(bare[0]) : null;
      if (bare && href) {
        flush();
        out.push({ type: 'link', href, children: [{ type: 'text', text: bare[0] }] });
        i += bare[0].length;
        continue;
      }
    }
    if (char === '*' || char === '_' || char === '~') {
      const delimiter = EMPHASIS.find((candidate) => text.startsWith(candidate, i));
      const opensAfter = text[i + (delimiter?.length ?? 1)];
      const canOpen =
        delimiter !== undefined &&
        opensAfter !== undefined &&
        !/\s/.test(opensAfter) &&
        !(delimiter[0] === '_' && isWordChar(text[i - 1]));
      if (delimiter && canOpen) {
        const close = findCloser(scope, delimiter, i + delimiter.length);
        if (close !== -1) {
          flush();
          const children = nested(i + delimiter.length, close);
          if (delimiter.length === 3) out.push({ type: 'strong', children: [{ type: 'em', children }] });
          else if (delimiter === '~~') out.push({ type: 'del', children });
          else out.push({ type: delimiter.length === 2 ? 'strong' : 'em', children });
          i = close + delimiter.length;
          continue;
        }
      }
      let run = 1;
      while (text[i + run] === char) run += 1;
      buffer += text.slice(i, i + run);
      i += run;
      continue;
    }
    buffer += char;
    i += 1;
  }
  flush();
  return out;
}

/** Inline Markdown of one line; `base` is the line's offset in the whole answer. */
export function parseInline(text: string, base = 0): Inline[] {
  return inlineIn({ text, base, depth: 0, unclosed: new Set() });
}

// --- React --------------------------------------------------------------------------------------

export interface RenderOptions {
  /** Renders citation marker n (found at `start` in the answer). */
  renderMarker: (marker: number, start: number, key: string) => ReactNode;
  /**
   * Marks the text between MARK_OPEN and MARK_CLOSE (a passage's quoted span) as `<mark>`; `inside`
   * carries across nodes and blocks, which are rendered in reading order.
   */
  highlight?: { inside: boolean };
}

/** Private-use characters that open and close a marked span in text given to `renderPassage`. */
const MARK_OPEN = '\uE000';
const MARK_CLOSE = '\uE001';

function renderText(text: string, options: RenderOptions, key: string): ReactNode {
  const state = options.highlight;
  if (!state) return text;
  const parts: ReactNode[] = [];
  let buffer = '';
  const flush = () => {
    if (!buffer) return;
    parts.push(
      state.inside
        ? createElement('mark', { key: `${key}.m${parts.length}`, className: 'cited-span' }, buffer)
        : buffer,
    );
    buffer = '';
  };
  for (const char of text) {
    if (char === MARK_OPEN || char === MARK_CLOSE) {
      flush();
      state.inside = char === MARK_OPEN;
    } else buffer += char;
  }
  flush();
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0] : createElement(Fragment, { key }, ...parts);
}

function renderInline(nodes: Inline[], options: RenderOptions, prefix: string): ReactNode[] {
  return nodes.map((node, index) => {
    const key = `${prefix}.${index}`;
    switch (node.type) {
      case 'text':
        return renderText(node.text, options, key);
      case 'code':
        return createElement('code', { key, className: 'md-code' }, renderText(node.text, options, key));
      case 'strong':
      case 'em':
      case 'del':
        return createElement(node.type, { key }, ...renderInline(node.children, options, key));
      case 'link':
        return createElement(
          'a',
          { key, href: node.href, target: '_blank', rel: 'noopener noreferrer' },
          ...renderInline(node.children, options, key),
        );
      case 'marker':
        return options.renderMarker(node.marker, node.start, key);
    }
  });
}

function renderLines(lines: Inline[][], options: RenderOptions, prefix: string): ReactNode[] {
  return lines.flatMap((line, index) => [
    ...(index > 0 ? [createElement('br', { key: `${prefix}.br${index}` })] : []),
    ...renderInline(line, options, `${prefix}.${index}`),
  ]);
}

/** Blocks as React elements; `tight` leaves a lone paragraph unwrapped (list items). */
export function renderBlocks(
  blocks: readonly Block[],
  options: RenderOptions,
  prefix: string,
  tight = false,
): ReactNode[] {
  return blocks.map((block, index) => {
    const key = `${prefix}.${index}`;
    switch (block.type) {
      case 'paragraph':
        // A list item of one paragraph shows its text without a paragraph around it.
        return tight
          ? createElement(Fragment, { key }, ...renderLines(block.lines, options, key))
          : createElement('p', { key }, ...renderLines(block.lines, options, key));
      case 'heading':
        return createElement(
          'p',
          { key, className: 'md-heading', 'data-level': block.level },
          createElement('strong', null, ...renderInline(block.content, options, key)),
        );
      case 'code':
        return createElement(
          'pre',
          { key, className: 'md-pre' },
          createElement(
            'code',
            block.language ? { className: `language-${block.language}` } : null,
            renderText(block.text, options, key),
          ),
        );
      case 'list':
        return createElement(
          block.ordered ? 'ol' : 'ul',
          { key, ...(block.ordered && block.start !== 1 ? { start: block.start } : {}) },
          ...block.items.map((item, itemIndex) =>
            createElement(
              'li',
              { key: `${key}.${itemIndex}` },
              ...renderBlocks(
                item,
                options,
                `${key}.${itemIndex}`,
                item.filter((part) => part.type === 'paragraph').length <= 1,
              ),
            ),
          ),
        );
      case 'quote':
        return createElement('blockquote', { key }, ...renderBlocks(block.blocks, options, key));
      case 'table':
        return createElement(
          'div',
          { key, className: 'md-table-wrap' },
          createElement(
            'table',
            { className: 'md-table' },
            createElement(
              'thead',
              null,
              createElement(
                'tr',
                null,
                ...block.header.map((cell, c) =>
                  createElement(
                    'th',
                    { key: `${key}.h${c}`, scope: 'col' },
                    ...renderInline(cell, options, `${key}.h${c}`),
                  ),
                ),
              ),
            ),
            createElement(
              'tbody',
              null,
              ...block.rows.map((row, r) =>
                createElement(
                  'tr',
                  { key: `${key}.r${r}` },
                  ...row.map((cell, c) =>
                    createElement(
                      'td',
                      { key: `${key}.r${r}.${c}` },
                      ...renderInline(cell, options, `${key}.r${r}.${c}`),
                    ),
                  ),
                ),
              ),
            ),
          ),
        );
      case 'rule':
        return createElement('hr', { key });
    }
  });
}

/** The line of `text` holding `index`: its start and end offsets. */
function lineAt(text: string, index: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const next = text.indexOf('\n', index);
  return { start, end: next < 0 ? text.length : next };
}

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/;
/** What opens a block on a line: list bullets, heading hashes, quote marks, a table's first pipe. */
const LINE_PREFIX = /^\s*(?:(?:[-*+]|\d{1,9}[.)])\s+|#{1,6}\s+|>\s?|\|\s*)*/;

/**
 * A range moved so its marks never break the Markdown around it: off fence lines, after a line's block
 * prefix ("- ", "## ", "| "), before a table row's closing pipe.
 */
function markableRange(text: string, range: { start: number; end: number }): { start: number; end: number } {
  let { start, end } = range;
  const first = lineAt(text, start);
  if (FENCE_LINE.test(text.slice(first.start, first.end))) start = Math.min(text.length, first.end + 1);
  else if (/^\s*$/.test(text.slice(first.start, start))) {
    start = first.start + (LINE_PREFIX.exec(text.slice(first.start, first.end))?.[0].length ?? 0);
  }
  const last = lineAt(text, Math.max(start, end - 1));
  if (FENCE_LINE.test(text.slice(last.start, last.end))) end = Math.max(start, last.start - 1);
  else {
    const tail = /\s*\|?\s*$/.exec(text.slice(Math.max(start, last.start), end));
    if (tail && text.slice(end, last.end).trim() === '') end -= tail[0].length;
  }
  return { start, end: Math.max(start, end) };
}

/**
 * A cited passage as Markdown (code as code, tables as tables, never raw HTML), its `marked` ranges
 * (offsets in `text`) shown as `<mark class="cited-span">`; markers in the passage stay text.
 */
export function renderPassage(text: string, marked: readonly { start: number; end: number }[]): ReactNode[] {
  const source = text.replace(/[\uE000\uE001]/g, '\uFFFD');
  let withMarks = '';
  let last = 0;
  for (const range of [...marked].map((r) => markableRange(source, r)).sort((a, b) => a.start - b.start)) {
    if (range.start < last || range.end <= range.start || range.end > source.length) continue;
    withMarks += `${source.slice(last, range.start)}${MARK_OPEN}${source.slice(range.start, range.end)}${MARK_CLOSE}`;
    last = range.end;
  }
  withMarks += source.slice(last);
  return renderBlocks(
    parseMarkdown(withMarks),
    {
      renderMarker: (marker, _start, key) => createElement(Fragment, { key }, `[${marker}]`),
      highlight: { inside: false },
    },
    'passage',
  );
}

/** Longer answers are shown as plain text (with their markers), not read as Markdown. */
export const MAX_MARKDOWN_CHARS = 20_000;

/** The answer as React elements (no HTML strings anywhere). */
export function renderMarkdown(text: string, options: RenderOptions): ReactNode[] {
  return renderBlocks(parseMarkdown(text), options, 'md');
}

/** The blocks of an answer; a very long one is one paragraph of text and markers, not Markdown. */
export function parseMarkdown(text: string): Block[] {
  if (text.length <= MAX_MARKDOWN_CHARS) return parseBlocks(splitLines(text), 0);
  const nodes: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(/\[(\d{1,2}(?:\s*,\s*\d{1,2})*)\]/g)) {
    if (match.index > last) nodes.push({ type: 'text', text: text.slice(last, match.index) });
    for (const part of match[1].split(',')) {
      nodes.push({ type: 'marker', marker: Number(part), start: match.index });
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) nodes.push({ type: 'text', text: text.slice(last) });
  return [{ type: 'paragraph', lines: [nodes] }];
}
