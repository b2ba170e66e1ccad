import { protectLine } from './protect-line';

/** A line of a page's text layer: its text and its baseline (PDF units, larger is higher up). */
export interface PdfLine {
  text: string;
  y: number;
}

/** An outline (bookmark) entry resolved to a page: level 1 for top-level entries. */
export interface PdfHeading {
  title: string;
  level: number;
  /** 0-based page index. */
  page: number;
  /** Where the destination points on the page, when it says. */
  top: number | null;
}

export interface PdfText {
  text: string;
  /** `pageStarts[i]`: offset in `text` where page i + 1 starts. */
  pageStarts: number[];
  /** Whether `text` is Markdown (headings from the outline) or plain. */
  markdown: boolean;
  /** How many running header and footer lines were removed. */
  removedLines: number;
}

/** Lines within this many of the top or bottom of a page's text are header and footer candidates. */
const EDGE_LINES = 2;

/**
 * Digits vary (page numbers, dates); the rest of a running header or footer repeats exactly, at the
 * same edge and the same height on the page.
 */
function runningKey(line: PdfLine, edge: 'top' | 'bottom'): string {
  const text = line.text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
  return text ? `${edge}:${Math.round(line.y / 3)}:${text}` : '';
}

/** Which edges of its page a line sits at: both, on a page of few lines. */
function edgesOf(position: number, count: number): ('top' | 'bottom')[] {
  const edges: ('top' | 'bottom')[] = [];
  if (position < EDGE_LINES) edges.push('top');
  if (position >= count - EDGE_LINES) edges.push('bottom');
  return edges;
}

/**
 * A header or footer frames a page's body: a page of one line has none, and that line is its text (a
 * slide deck, a form: "Figure 1", "Figure 2", … on every page would otherwise all be dropped).
 */
function hasFrame(lines: PdfLine[]): boolean {
  return lines.length > 1;
}

/**
 * Running headers and footers: a line among the first or last two of a page whose text, digits aside,
 * recurs at that edge and height on at least 60% of the pages (and on 3 pages or more). Pages of a
 * single line neither count nor lose it.
 */
export function runningLines(pages: PdfLine[][]): Set<string> {
  const counts = new Map<string, number>();
  for (const lines of pages) {
    if (!hasFrame(lines)) continue;
    const seen = new Set<string>();
    lines.forEach((line, position) => {
      for (const edge of edgesOf(position, lines.length)) {
        const key = runningKey(line, edge);
        if (key && !seen.has(key)) {
          seen.add(key);
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
      }
    });
  }
  const needed = Math.max(3, Math.ceil(pages.length * 0.6));
  return new Set([...counts].filter(([, count]) => count >= needed).map(([key]) => key));
}

function sameTitle(a: string, b: string): boolean {
  const norm = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  return norm(a) === norm(b);
}

/**
 * The document's text, page after page: running headers and footers removed, and, with an outline,
 * each bookmark's line turned into a Markdown heading at its level (inserted where the bookmark points
 * when no line of the page says its title). A wider gap between lines starts a new paragraph.
 */
export function layoutPdf(pages: PdfLine[][], outline: PdfHeading[]): PdfText {
  const running = runningLines(pages);
  const markdown = outline.length > 0;
  const byPage = new Map<number, PdfHeading[]>();
  for (const heading of outline) {
    const list = byPage.get(heading.page) ?? [];
    list.push(heading);
    byPage.set(heading.page, list);
  }
  let text = '';
  let removedLines = 0;
  const pageStarts: number[] = [];
  pages.forEach((lines, index) => {
    const kept = lines.filter((line, position) => {
      const drop =
        hasFrame(lines) &&
        edgesOf(position, lines.length).some((edge) => running.has(runningKey(line, edge)));
      if (drop) removedLines++;
      return !drop;
    });
    const blocks: string[] = [];
    let paragraph: string[] = [];
    const endParagraph = () => {
      if (paragraph.length > 0) blocks.push(paragraph.join('\n'));
      paragraph = [];
    };
    const pending = [...(byPage.get(index) ?? [])];
    const gaps = kept
      .slice(1)
      .map((line, i) => kept[i].y - line.y)
      .filter((gap) => gap > 0);
    const usual = gaps.length > 0 ? gaps.sort((a, b) => a - b)[Math.floor(gaps.length / 2)] : 0;
    kept.forEach((line, position) => {
      // Bookmarks pointing above this line whose title no later line says: their heading goes here.
      while (pending.length > 0 && pending[0].top !== null && pending[0].top > line.y + 1) {
        const heading = pending[0];
        if (kept.slice(position).some((later) => sameTitle(later.text, heading.title))) break;
        pending.shift();
        endParagraph();
        blocks.push(`${'#'.repeat(heading.level)} ${heading.title}`);
      }
      const match = pending.findIndex((heading) => sameTitle(line.text, heading.title));
      if (match !== -1) {
        for (const skipped of pending.splice(0, match))
          blocks.push(`${'#'.repeat(skipped.level)} ${skipped.title}`);
        const [heading] = pending.splice(0, 1);
        endParagraph();
        blocks.push(`${'#'.repeat(heading.level)} ${line.text.trim()}`);
        return;
      }
      const gap = position > 0 ? kept[position - 1].y - line.y : 0;
      if (usual > 0 && gap > usual * 1.35) endParagraph();
      paragraph.push(markdown ? protectLine(line.text) : line.text);
    });
    endParagraph();
    for (const heading of pending) blocks.push(`${'#'.repeat(heading.level)} ${heading.title}`);
    if (text) text += '\n\n';
    pageStarts.push(text.length);
    text += blocks.join('\n\n');
  });
  return { text, pageStarts, markdown, removedLines };
}
