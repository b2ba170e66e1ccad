/**
 * Answers and cited passages as Markdown: react-markdown with GFM (tables, strike, bare links), plus
 * two small plugins of ours. Raw HTML in an answer is shown as the characters it is (react-markdown
 * builds React elements, never HTML strings). Links keep only http(s) addresses and open in a new tab
 * without the opener; images show their alt text only; headings are bold lines; a line break inside a
 * paragraph stays a line break. Partial input (a streaming answer, an unclosed fence or emphasis) renders
 * as what it is so far.
 *
 * `remarkAnswer` turns each citation marker `[n]` (or `[n, m]`) outside code and links into a marker
 * that knows its offset in the original answer: the chat finds the sentence a marker supports from it.
 */
import { createContext, Fragment, useContext, useDeferredValue, useMemo, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { Element, ElementContent, Root as HastRoot } from 'hast';
import type { Nodes, PhrasingContent, Root, Text } from 'mdast';
import type { VFile } from 'vfile';

/** Longer answers are shown as plain text (with their markers), not read as Markdown. */
export const MAX_MARKDOWN_CHARS = 20_000;
/** So are answers with more emphasis delimiters than this: resolving them is quadratic in the parser. */
const MAX_DELIMITERS = 2_000;

/** Renders citation marker n, found at `offset` in the answer. */
export type RenderMarker = (marker: number, offset: number) => ReactNode;

const MARKER = /\[(\d{1,2}(?:[ \t]*,[ \t]*\d{1,2})*)\]/g;

/** An http(s) address, normalised; anything else (javascript:, data:, relative) is refused. */
export function safeHref(raw: string): string | null {
  const trimmed = raw.replace(/[\uE000\uE001]/g, '').trim();
  if (!/^https?:\/\//i.test(trimmed)) return null;
  try {
    const url = new URL(trimmed);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A marker as a text node that becomes a `<cite>` element, which the components render. */
function markerNode(marker: number, offset: number, source: Text): Text {
  return {
    type: 'text',
    value: `[${marker}]`,
    position: source.position,
    data: { hName: 'cite', hProperties: { dataMarker: marker, dataOffset: offset } },
  };
}

/** A text node split at its line breaks (kept as `<br>`) and, when `markers`, at its citation markers. */
function splitText(node: Text, source: string, markers: boolean): PhrasingContent[] {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  // The node's source, to find each marker's offset (it differs from the value around escapes).
  const raw = start !== undefined && end !== undefined ? source.slice(start, end) : node.value;
  const out: PhrasingContent[] = [];
  const pattern = markers ? new RegExp(`${MARKER.source}|\\n`, 'g') : /\n/g;
  let last = 0;
  let cursor = 0;
  for (const match of node.value.matchAll(pattern)) {
    if (match.index > last) out.push({ type: 'text', value: node.value.slice(last, match.index) });
    last = match.index + match[0].length;
    if (match[0] === '\n') {
      out.push({ type: 'break' });
      continue;
    }
    // Not in the source as written (`\[1\]`, `&#91;1]`): an escaped marker stays text.
    const at = raw.indexOf(match[0], cursor);
    if (at < 0) {
      out.push({ type: 'text', value: match[0] });
      continue;
    }
    cursor = at + match[0].length;
    for (const part of match[1].split(','))
      out.push(markerNode(Number(part.trim()), (start ?? 0) + at, node));
  }
  if (last === 0) return [node];
  if (last < node.value.length) out.push({ type: 'text', value: node.value.slice(last) });
  return out;
}

function transform(node: Nodes, source: string, markers: boolean): void {
  if (node.type === 'heading') {
    node.data = { hName: 'p', hProperties: { className: ['md-heading'], dataLevel: node.depth } };
    node.children = [{ type: 'strong', children: node.children }];
  }
  if (node.type === 'inlineCode') node.data = { hProperties: { className: ['md-code'] } };
  // A code block's text as written, without the line end the HTML conversion adds.
  if (node.type === 'code') node.data = { hChildren: [{ type: 'text', value: node.value }] };
  if (!('children' in node)) return;
  const inLink = node.type === 'link' || node.type === 'linkReference';
  const children: Nodes[] = [];
  for (const child of node.children as Nodes[]) {
    if (child.type === 'text') children.push(...splitText(child, source, markers && !inLink));
    else if (child.type === 'image' || child.type === 'imageReference')
      children.push({ type: 'text', value: child.alt ?? '' });
    else {
      transform(child, source, markers && !inLink);
      children.push(child);
    }
  }
  (node as { children: Nodes[] }).children = children;
}

/** The answer's own Markdown rules (see the header); markers only when `markers` is set. */
function remarkAnswer(options: { markers: boolean }) {
  return (tree: Root, file: VFile) => transform(tree, String(file.value ?? ''), options.markers);
}

/** Private-use characters that open and close a marked span in text given to `renderPassage`. */
const MARK_OPEN = '\uE000';
const MARK_CLOSE = '\uE001';

/**
 * Wraps the text between MARK_OPEN and MARK_CLOSE in `<mark class="cited-span">`, across elements and
 * blocks in reading order.
 */
function rehypeMarks() {
  return (tree: HastRoot) => {
    let inside = false;
    const visit = (node: HastRoot | Element) => {
      const children: ElementContent[] = [];
      for (const child of node.children as ElementContent[]) {
        if (child.type !== 'text') {
          if (child.type === 'element') visit(child);
          children.push(child);
          continue;
        }
        for (const [index, value] of child.value.split(/([\uE000\uE001])/).entries()) {
          if (index % 2 === 1) inside = value === MARK_OPEN;
          // Line ends between blocks stay unmarked.
          else if (inside && /[^\n]/.test(value)) {
            const text: ElementContent = { type: 'text', value };
            children.push({
              type: 'element',
              tagName: 'mark',
              properties: { className: ['cited-span'] },
              children: [text],
            });
          } else if (value) children.push({ type: 'text', value });
        }
      }
      node.children = children;
    };
    visit(tree);
  };
}

/** How the answer being rendered draws its markers (a context, so a new callback does not re-parse). */
const MarkerRenderer = createContext<RenderMarker>(() => null);

function CitationMarker({ node }: { node?: Element }) {
  const render = useContext(MarkerRenderer);
  return render(Number(node?.properties.dataMarker), Number(node?.properties.dataOffset));
}

const components: Components = {
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <>{children}</>
    ),
  pre: ({ children }) => <pre className="md-pre">{children}</pre>,
  table: ({ children }) => (
    <div className="md-table-wrap">
      <table className="md-table">{children}</table>
    </div>
  ),
  th: ({ children, style }) => (
    <th scope="col" style={style}>
      {children}
    </th>
  ),
  cite: CitationMarker,
};

const urlTransform = (url: string) => safeHref(url);

/** A very long (or delimiter-heavy) answer: one paragraph of its text and markers, not read as Markdown. */
function plainText(text: string, renderMarker: RenderMarker): ReactNode {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(MARKER)) {
    nodes.push(text.slice(last, match.index));
    for (const part of match[1].split(',')) nodes.push(renderMarker(Number(part), match.index));
    last = match.index + match[0].length;
  }
  nodes.push(text.slice(last));
  return (
    <p>
      {nodes.map((node, index) => (
        <Fragment key={index}>{node}</Fragment>
      ))}
    </p>
  );
}

/** An answer as React elements, its citation markers drawn by `renderMarker`; parsed again only when the text changes. */
export function Markdown({ text: latest, renderMarker }: { text: string; renderMarker: RenderMarker }) {
  // While tokens stream in faster than an answer parses, React renders the newest text it has time for
  // instead of parsing every intermediate one on the way (the input stays responsive meanwhile).
  const text = useDeferredValue(latest);
  const plain = text.length > MAX_MARKDOWN_CHARS || (text.match(/[*_~]/g)?.length ?? 0) > MAX_DELIMITERS;
  const tree = useMemo(
    () =>
      plain ? null : (
        <ReactMarkdown
          remarkPlugins={[remarkGfm, [remarkAnswer, { markers: true }]]}
          urlTransform={urlTransform}
          components={components}
        >
          {text}
        </ReactMarkdown>
      ),
    [plain, text],
  );
  if (plain) return plainText(text, renderMarker);
  return <MarkerRenderer.Provider value={renderMarker}>{tree}</MarkerRenderer.Provider>;
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
export function renderPassage(text: string, marked: readonly { start: number; end: number }[]): ReactNode {
  const source = text.replace(/[\uE000\uE001]/g, '\uFFFD');
  let withMarks = '';
  let last = 0;
  for (const range of [...marked].map((r) => markableRange(source, r)).sort((a, b) => a.start - b.start)) {
    if (range.start < last || range.end <= range.start || range.end > source.length) continue;
    withMarks += `${source.slice(last, range.start)}${MARK_OPEN}${source.slice(range.start, range.end)}${MARK_CLOSE}`;
    last = range.end;
  }
  withMarks += source.slice(last);
  return (
    <ReactMarkdown
      remarkPlugins={[remarkGfm, [remarkAnswer, { markers: false }]]}
      rehypePlugins={[rehypeMarks]}
      urlTransform={urlTransform}
      components={components}
    >
      {withMarks}
    </ReactMarkdown>
  );
}
