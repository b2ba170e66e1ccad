import { layoutPdf } from '@lumina/rag';
import type { PdfHeading, PdfLine } from '@lumina/rag';
import { getDocumentProxy } from 'unpdf';
import { UnreadableDocumentError } from '../errors/unreadable-document.error';
import type { DocumentParser, ParsedText } from './document-parser';

/** Outlines past this many entries (or levels) are cut: no real bookmark tree is that large. */
const MAX_OUTLINE_ENTRIES = 5000;
const MAX_OUTLINE_LEVEL = 6;

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

interface OutlineNode {
  title: string;
  dest: string | unknown[] | null;
  items: OutlineNode[];
}

/**
 * .pdf: the text layer (unpdf, i.e. pdf.js), page by page, no OCR. Headings from the outline
 * (bookmarks) where there is one, running headers and footers removed, page numbers kept for the
 * chunks, the title from the document's metadata.
 */
export class PdfParser implements DocumentParser {
  readonly format = 'pdf' as const;

  async parse(bytes: Buffer, name: string): Promise<ParsedText> {
    let pages: PdfLine[][];
    let outline: PdfHeading[];
    let title: string;
    try {
      const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
      try {
        pages = [];
        for (let number = 1; number <= pdf.numPages; number++) pages.push(await pageLines(pdf, number));
        title = await metadataTitle(pdf);
        outline = await resolveOutline(pdf);
      } finally {
        await pdf.destroy();
      }
    } catch (error) {
      throw new UnreadableDocumentError(describePdfError(name, error));
    }
    const laid = layoutPdf(pages, outline);
    if (!laid.text.replace(/^#+ .*$/gm, '').trim()) {
      throw new UnreadableDocumentError(
        `"${name}" has no text layer (it may be a scanned image); Lumina reads the text of PDFs and does not run OCR.`,
      );
    }
    return {
      text: laid.text,
      format: laid.markdown ? 'markdown' : 'plain',
      pageStarts: laid.pageStarts,
      ...(title ? { title } : {}),
    };
  }
}

/** A page's text items grouped into lines, top to bottom, left to right. */
async function pageLines(pdf: PdfDocument, number: number): Promise<PdfLine[]> {
  const page = await pdf.getPage(number);
  const content = await page.getTextContent();
  // Items on one line share a baseline (within a point): bucket them by it, in linear time.
  const rows = new Map<number, { y: number; parts: { x: number; text: string }[] }>();
  for (const item of content.items) {
    if (!('str' in item) || !item.str) continue;
    const [, , , , x, y] = item.transform as number[];
    const key = Math.round(y);
    const row = rows.get(key) ?? rows.get(key - 1) ?? rows.get(key + 1);
    if (row) row.parts.push({ x, text: item.str });
    else rows.set(key, { y, parts: [{ x, text: item.str }] });
  }
  page.cleanup();
  return [...rows.values()]
    .sort((a, b) => b.y - a.y)
    .map((row) => ({
      y: row.y,
      text: row.parts
        .sort((a, b) => a.x - b.x)
        .map((part) => part.text)
        .join('')
        .replace(/\s+/g, ' ')
        .trim(),
    }))
    .filter((line) => line.text);
}

async function metadataTitle(pdf: PdfDocument): Promise<string> {
  const { info } = await pdf.getMetadata();
  const raw = (info as { Title?: unknown }).Title;
  if (typeof raw !== 'string') return '';
  const title = raw
    .replace(/^Microsoft (?:Word|PowerPoint) - /, '')
    .replace(/\s+/g, ' ')
    .trim();
  return /^(?:untitled|document\d*)$/i.test(title) ? '' : title;
}

/** The outline flattened in reading order, each entry resolved to its page; entries that don't resolve are skipped. */
async function resolveOutline(pdf: PdfDocument): Promise<PdfHeading[]> {
  const roots = ((await pdf.getOutline()) ?? []) as unknown as OutlineNode[];
  const headings: PdfHeading[] = [];
  const stack: { node: OutlineNode; level: number }[] = [...roots]
    .reverse()
    .map((node) => ({ node, level: 1 }));
  let visited = 0;
  while (stack.length > 0 && visited < MAX_OUTLINE_ENTRIES) {
    const { node, level } = stack.pop()!;
    visited++;
    const title = (node.title ?? '').replace(/\s+/g, ' ').trim();
    const target = await resolveDestination(pdf, node.dest);
    if (title && target) headings.push({ title, level: Math.min(level, MAX_OUTLINE_LEVEL), ...target });
    const children = Array.isArray(node.items) ? node.items : [];
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], level: level + 1 });
  }
  // Reading order is page order; a tree listed out of order still lands on the right pages.
  return headings.sort((a, b) => a.page - b.page || (b.top ?? Infinity) - (a.top ?? Infinity));
}

async function resolveDestination(
  pdf: PdfDocument,
  dest: OutlineNode['dest'],
): Promise<{ page: number; top: number | null } | null> {
  try {
    const explicit = typeof dest === 'string' ? await pdf.getDestination(dest) : dest;
    if (!Array.isArray(explicit) || explicit.length === 0) return null;
    const [ref, kind, , top] = explicit as [unknown, { name?: string } | undefined, unknown, unknown];
    const page =
      typeof ref === 'number'
        ? ref
        : await pdf.getPageIndex(ref as Parameters<PdfDocument['getPageIndex']>[0]);
    const y = kind?.name === 'XYZ' || kind?.name === 'FitH' || kind?.name === 'FitBH' ? top : null;
    return { page, top: typeof y === 'number' ? y : null };
  } catch {
    return null;
  }
}

function describePdfError(name: string, error: unknown): string {
  const kind = (error as { name?: string }).name;
  if (kind === 'PasswordException') {
    return `"${name}" is password-protected; remove the password and upload it again.`;
  }
  if (kind === 'InvalidPDFException') {
    return `"${name}" could not be read as a PDF: its structure is damaged (the file may be corrupt or cut off).`;
  }
  return `"${name}" could not be read as a PDF: ${(error as Error).message ?? String(error)}.`;
}
