import { protectLine } from './protect-line';

/**
 * DOM → Markdown without recursion: one explicit stack walks the tree, so a page nested thousands deep
 * costs time in proportion to its size and never the call stack. Headings become ATX headings (with the
 * `id` a citation can link to), lists keep their markers and nesting, `<pre>` becomes a fenced block and
 * `<table>` a pipe table. Markdown escaping is off except where plain text would turn into structure
 * (a paragraph starting with `# ` or a fence): the text is for reading and searching.
 */

/** The subset of the DOM the converter reads (linkedom's nodes satisfy it). */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  firstChild: DomNode | null;
  nextSibling: DomNode | null;
  parentNode: DomNode | null;
  getAttribute?(name: string): string | null;
}

/** A heading as written into the Markdown: where its line starts and the id it carried, if any. */
export interface MarkdownHeadingAnchor {
  offset: number;
  level: number;
  text: string;
  id: string | null;
}

export interface MarkdownConversion {
  markdown: string;
  headings: MarkdownHeadingAnchor[];
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

const SKIPPED = new Set([
  'HEAD',
  'TITLE',
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'IFRAME',
  'OBJECT',
  'SVG',
  'CANVAS',
  'BUTTON',
  'SELECT',
  'INPUT',
  'TEXTAREA',
  'FORM',
]);

const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BODY',
  'CENTER',
  'DD',
  'DETAILS',
  'DIALOG',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'HEADER',
  'HGROUP',
  'HR',
  'HTML',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'SECTION',
  'SUMMARY',
  'UL',
]);

const HEADINGS: Record<string, number> = { H1: 1, H2: 2, H3: 3, H4: 4, H5: 5, H6: 6 };

/** Permalink glyphs that documentation generators put next to a heading. */
const PERMALINK_TEXT = /^[\s#¶§🔗⚓\u00b6\u2693\uD83D\uDD17]*$/u;
const PERMALINK_CLASS =
  /(?:^|[\s_-])(?:anchor|anchorjs|permalink|headerlink|header-link|hash-link|heading-link|deep-link)(?:$|[\s_-])/i;

interface ListFrame {
  ordered: boolean;
  next: number;
  /** Indent of this list's markers. */
  base: string;
  /** Indent of the current item's continuation lines (and of lists nested in it). */
  contentIndent: string;
}

interface Block {
  text: string;
  /** Consecutive list lines are joined by one line break, not a blank line. */
  listLine: boolean;
  heading?: { level: number; text: string; id: string | null };
}

function attr(node: DomNode, name: string): string | null {
  return node.getAttribute ? node.getAttribute(name) : null;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ');
}

function isHidden(node: DomNode): boolean {
  return (
    attr(node, 'hidden') !== null ||
    attr(node, 'aria-hidden') === 'true' ||
    /display\s*:\s*none/i.test(attr(node, 'style') ?? '')
  );
}

/** The element children and text of a node, in order. */
function childrenOf(node: DomNode): DomNode[] {
  const children: DomNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) children.push(child);
  return children;
}

const INLINE_MARKS: Record<string, string> = { STRONG: '**', B: '**', EM: '_', I: '_' };
const INLINE_CODE = new Set(['CODE', 'KBD', 'SAMP', 'TT']);

/**
 * The inline text of nodes: emphasis, code and line breaks kept; links reduced to their text. In a
 * heading, permalink anchors (¶, #, a self-link that repeats the heading's text) are dropped, which is
 * what turned "Decimal" into "DecimalDecimal(value)".
 */
export function inlineText(nodes: DomNode[], inHeading = false): string {
  let out = '';
  const headingText = inHeading ? collapse(nodes.map((node) => node.textContent ?? '').join('')) : '';
  const stack: (DomNode | string)[] = [...nodes].reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out += item;
      continue;
    }
    if (item.nodeType === TEXT_NODE) {
      out += collapse(item.textContent ?? '');
      continue;
    }
    if (item.nodeType !== ELEMENT_NODE) continue;
    const name = item.nodeName.toUpperCase();
    if (SKIPPED.has(name) || isHidden(item)) continue;
    if (name === 'BR') {
      out += inHeading ? ' ' : '\n';
      continue;
    }
    if (name === 'IMG') {
      out += attr(item, 'alt') ?? '';
      continue;
    }
    if (inHeading && name === 'A' && isPermalink(item, headingText)) continue;
    if (INLINE_CODE.has(name)) {
      const code = collapse(item.textContent ?? '');
      // "Decimal<code>Decimal(value)</code>" reads "Decimal Decimal(value)", not "DecimalDecimal(value)".
      if (inHeading) out += /\S$/.test(out) && /^\S/.test(code) ? ` ${code}` : code;
      else if (code.trim()) out += fenceInline(code);
      continue;
    }
    const mark = inHeading ? undefined : INLINE_MARKS[name];
    if (mark) {
      const content = collapse(item.textContent ?? '');
      if (!content.trim()) continue;
      // Markers hug the words: "**bold** text", never "** bold **".
      const lead = /^\s/.test(content) ? ' ' : '';
      const trail = /\s$/.test(content) ? ' ' : '';
      out += `${lead}${mark}`;
      stack.push(`${mark}${trail}`);
      const children = childrenOf(item);
      trimEdges(children);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
      continue;
    }
    const children = childrenOf(item);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return out;
}

/** Leading and trailing whitespace of an emphasised run moves outside its markers. */
function trimEdges(children: DomNode[]): void {
  const first = children[0];
  const last = children[children.length - 1];
  if (first?.nodeType === TEXT_NODE) children[0] = textNode((first.textContent ?? '').replace(/^\s+/, ''));
  const end = children.length - 1;
  if (last?.nodeType === TEXT_NODE) {
    children[end] = textNode((children[end].textContent ?? '').replace(/\s+$/, ''));
  }
}

function textNode(text: string): DomNode {
  return {
    nodeType: TEXT_NODE,
    nodeName: '#text',
    textContent: text,
    firstChild: null,
    nextSibling: null,
    parentNode: null,
  };
}

function isPermalink(link: DomNode, headingText: string): boolean {
  const href = attr(link, 'href') ?? '';
  const text = collapse(link.textContent ?? '').trim();
  if (PERMALINK_TEXT.test(text)) return true;
  if (PERMALINK_CLASS.test(attr(link, 'class') ?? '') && href.startsWith('#')) return true;
  if (attr(link, 'aria-hidden') === 'true') return true;
  // A self-link whose text the heading says once more without it.
  if (href.startsWith('#') && text) {
    const first = headingText.indexOf(text);
    return first !== -1 && headingText.indexOf(text, first + text.length) !== -1;
  }
  return false;
}

function fenceInline(code: string): string {
  let longest = 0;
  for (const run of code.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const ticks = '`'.repeat(longest + 1);
  const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${code}${pad}${ticks}`;
}

function codeBlock(pre: DomNode): string {
  const code = (pre.textContent ?? '').replace(/^\n/, '').replace(/\s+$/, '');
  const language = attr(pre, 'data-lumina-language') ?? '';
  let longest = 0;
  for (const run of code.match(/^ {0,3}(`{3,}|~{3,})/gm) ?? [])
    longest = Math.max(longest, run.trim().length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${code}\n${fence}`;
}

function firstElement(root: DomNode, name: string): DomNode | null {
  for (let child = root.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === ELEMENT_NODE && child.nodeName.toUpperCase() === name) return child;
  }
  return null;
}

/** Rows of a table, in order, including those inside THEAD/TBODY/TFOOT, but not of nested tables. */
function tableRows(table: DomNode): DomNode[] {
  const rows: DomNode[] = [];
  for (let child = table.firstChild; child; child = child.nextSibling) {
    const name = child.nodeName.toUpperCase();
    if (name === 'TR') rows.push(child);
    else if (name === 'THEAD' || name === 'TBODY' || name === 'TFOOT') {
      for (let row = child.firstChild; row; row = row.nextSibling) {
        if (row.nodeName.toUpperCase() === 'TR') rows.push(row);
      }
    }
  }
  return rows;
}

function pipeTable(table: DomNode): string {
  const rows = tableRows(table).map((row) => {
    const cells: string[] = [];
    let header = false;
    for (let cell = row.firstChild; cell; cell = cell.nextSibling) {
      const name = cell.nodeName.toUpperCase();
      if (name !== 'TD' && name !== 'TH') continue;
      if (name === 'TH') header = true;
      const text = collapse(inlineText(childrenOf(cell)))
        .trim()
        .replace(/\|/g, '\\|');
      cells.push(text);
      const span = Math.min(Number(attr(cell, 'colspan') ?? '1') || 1, 50);
      for (let i = 1; i < span; i++) cells.push('');
    }
    return { cells, header };
  });
  const filled = rows.filter((row) => row.cells.length > 0);
  if (filled.length === 0) return '';
  const width = Math.max(...filled.map((row) => row.cells.length));
  const caption = firstElement(table, 'CAPTION');
  const line = (cells: string[]) =>
    `| ${[...cells, ...Array<string>(width - cells.length).fill('')].join(' | ')} |`;
  const [head, ...body] = filled;
  const lines = [
    line(head.cells),
    `| ${Array<string>(width).fill('---').join(' | ')} |`,
    ...body.map((row) => line(row.cells)),
  ];
  const captionText = caption ? collapse(inlineText(childrenOf(caption))).trim() : '';
  return (captionText ? `${captionText}\n\n` : '') + lines.join('\n');
}

/** Converts the children of `root` (a body, an article) to Markdown, with the offsets of its headings. */
export function htmlToMarkdown(root: DomNode): MarkdownConversion {
  const blocks: Block[] = [];
  const lists: ListFrame[] = [];
  let quoteDepth = 0;
  let paragraph = '';
  /** The marker the next block written inside a list item starts with ("- ", "3. "). */
  let pendingMarker: string | null = null;

  const emit = (text: string, heading?: Block['heading']) => {
    const list = lists[lists.length - 1];
    const quote = '> '.repeat(quoteDepth);
    const indent = list?.contentIndent ?? '';
    const first = pendingMarker !== null && list ? `${list.base}${pendingMarker}` : indent;
    pendingMarker = null;
    const body = text
      .split('\n')
      .map((line, i) => `${quote}${i === 0 ? first : indent}${line}`)
      .join('\n');
    blocks.push({ text: body, listLine: list !== undefined && !heading, ...(heading ? { heading } : {}) });
  };

  const flush = () => {
    const lines = paragraph
      .split('\n')
      .map((line) => collapse(line).trim())
      .filter(Boolean);
    paragraph = '';
    if (lines.length > 0) emit(lines.map(protectLine).join('\n'));
  };

  type Frame = { node: DomNode; exitOf?: string };
  const stack: Frame[] = [];
  const pushChildren = (node: DomNode) => {
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i] });
  };
  pushChildren(root);

  while (stack.length > 0) {
    const { node, exitOf } = stack.pop()!;
    if (exitOf !== undefined) {
      flush();
      if (exitOf === 'UL' || exitOf === 'OL') lists.pop();
      else if (exitOf === 'BLOCKQUOTE') quoteDepth--;
      else if (exitOf === 'LI') pendingMarker = null;
      continue;
    }
    if (node.nodeType === TEXT_NODE) {
      // Line breaks in the source are spaces; only <br> breaks a line.
      paragraph += collapse(node.textContent ?? '');
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE) continue;
    const name = node.nodeName.toUpperCase();
    if (SKIPPED.has(name) || isHidden(node)) continue;

    const heading = HEADINGS[name] ? headingOf(node, name) : null;
    if (heading) {
      flush();
      const text = collapse(inlineText(childrenOf(node), true)).trim();
      if (text) emit(`${'#'.repeat(heading.level)} ${text}`, { ...heading, text });
      continue;
    }
    if (name === 'PRE') {
      flush();
      emit(codeBlock(node));
      continue;
    }
    if (name === 'TABLE') {
      flush();
      const table = pipeTable(node);
      if (table) emit(table);
      continue;
    }
    if (name === 'HR') {
      flush();
      emit('---');
      continue;
    }
    if (name === 'BR') {
      paragraph += '\n';
      continue;
    }
    if (name === 'IMG') {
      paragraph += attr(node, 'alt') ?? '';
      continue;
    }
    if (INLINE_MARKS[name] || INLINE_CODE.has(name)) {
      // Rendered whole, so emphasis and code keep their markers.
      paragraph += inlineText([node]);
      continue;
    }
    if (!BLOCKS.has(name)) {
      pushChildren(node); // span, a, label…: transparent
      continue;
    }
    flush();
    if (name === 'UL' || name === 'OL') {
      const base = lists[lists.length - 1]?.contentIndent ?? '';
      const start = Number(attr(node, 'start') ?? '1');
      lists.push({
        ordered: name === 'OL',
        next: Number.isInteger(start) ? start : 1,
        base,
        contentIndent: base,
      });
    } else if (name === 'LI') {
      const list = lists[lists.length - 1];
      if (list) {
        pendingMarker = list.ordered ? `${list.next++}. ` : '- ';
        list.contentIndent = list.base + ' '.repeat(pendingMarker.length);
      }
    } else if (name === 'BLOCKQUOTE') {
      quoteDepth++;
    }
    stack.push({ node, exitOf: name });
    pushChildren(node);
  }
  flush();
  return assemble(blocks);
}

/** The heading's level and id, as pinned before extraction (see main-content.ts) or as written. */
function headingOf(node: DomNode, name: string): { level: number; id: string | null } | null {
  const pinned = Number(attr(node, 'data-lumina-level'));
  const level = pinned >= 1 && pinned <= 6 ? pinned : HEADINGS[name];
  if (!level) return null;
  return { level, id: attr(node, 'data-lumina-id') ?? attr(node, 'id') };
}

function assemble(blocks: Block[]): MarkdownConversion {
  let markdown = '';
  const headings: MarkdownHeadingAnchor[] = [];
  blocks.forEach((block, i) => {
    if (i > 0) markdown += block.listLine && blocks[i - 1].listLine ? '\n' : '\n\n';
    if (block.heading) headings.push({ offset: markdown.length, ...block.heading });
    markdown += block.text;
  });
  return { markdown, headings };
}
