import {
  Document,
  Footer,
  Header,
  HeadingLevel,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';
import { PDFDocument, PDFName, PDFNumber, PDFString, StandardFonts } from 'pdf-lib';
import type { PDFFont, PDFPage, PDFRef } from 'pdf-lib';
import type { SourceBlock } from './markdown-blocks';

const HEADING_LEVELS = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
];

/** The blocks as a Word document: heading styles, bullet and numbered lists, tables, a running header and footer. */
export async function blocksToDocx(
  title: string,
  blocks: SourceBlock[],
  header: string,
  footer: string,
): Promise<Buffer> {
  const children: (Paragraph | Table)[] = [];
  for (const block of blocks) {
    if (block.kind === 'heading') {
      children.push(new Paragraph({ text: block.text, heading: HEADING_LEVELS[block.level - 1] }));
    } else if (block.kind === 'paragraph') {
      children.push(new Paragraph(block.text));
    } else if (block.kind === 'list') {
      for (const item of block.items) {
        children.push(
          block.ordered
            ? new Paragraph({ text: item, numbering: { reference: 'numbered', level: 0 } })
            : new Paragraph({ text: item, bullet: { level: 0 } }),
        );
      }
    } else if (block.kind === 'code') {
      for (const line of block.lines) {
        children.push(new Paragraph({ children: [new TextRun({ text: line || ' ', font: 'Courier New' })] }));
      }
    } else {
      const width = Math.max(...block.rows.map((row) => row.length));
      children.push(
        new Table({
          rows: block.rows.map(
            (row) =>
              new TableRow({
                children: Array.from(
                  { length: width },
                  (_, i) => new TableCell({ children: [new Paragraph(row[i] ?? '')] }),
                ),
              }),
          ),
        }),
      );
    }
  }
  const document = new Document({
    title,
    numbering: {
      config: [{ reference: 'numbered', levels: [{ level: 0, format: 'decimal', text: '%1.' }] }],
    },
    sections: [
      {
        headers: { default: new Header({ children: [new Paragraph(header)] }) },
        footers: { default: new Footer({ children: [new Paragraph(footer)] }) },
        children,
      },
    ],
  });
  return Packer.toBuffer(document);
}

/** Standard PDF fonts draw WinAnsi only: anything else becomes a space. */
function winAnsi(text: string): string {
  return text.replace(/[^\x20-\x7e\u00a0-\u00ff]/g, ' ');
}

interface Mark {
  level: number;
  title: string;
  page: number;
  y: number;
}

/**
 * The blocks as a PDF: bold headings with bookmarks at their levels, wrapped paragraphs, Courier code,
 * table rows as text, the title in the metadata, a running header and "Page n of m" at the foot.
 */
export async function blocksToPdf(title: string, blocks: SourceBlock[], header: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(winAnsi(title));
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const mono = await pdf.embedFont(StandardFonts.Courier);
  const pages: PDFPage[] = [];
  const marks: Mark[] = [];
  let y = 0;
  let page: PDFPage = addPage();
  function addPage(): PDFPage {
    const created = pdf.addPage([595, 842]);
    pages.push(created);
    y = 770;
    return created;
  }
  const draw = (text: string, font: PDFFont, size: number, x = 56) => {
    if (y < 70) page = addPage();
    page.drawText(winAnsi(text), { x, y, size, font });
    y -= size + 5;
  };
  const wrap = (text: string, font: PDFFont, size: number, width = 480): string[] => {
    const lines: string[] = [];
    let current = '';
    for (const word of winAnsi(text).split(/\s+/).filter(Boolean)) {
      const next = current ? `${current} ${word}` : word;
      if (current && font.widthOfTextAtSize(next, size) > width) {
        lines.push(current);
        current = word;
      } else current = next;
    }
    if (current) lines.push(current);
    return lines;
  };
  for (const block of blocks) {
    if (block.kind === 'heading') {
      const size = Math.max(11, 20 - block.level * 2);
      if (y < 120) page = addPage();
      y -= 6;
      marks.push({
        level: block.level,
        title: winAnsi(block.text).trim(),
        page: pages.length - 1,
        y: y + size,
      });
      for (const line of wrap(block.text, bold, size)) draw(line, bold, size);
    } else if (block.kind === 'paragraph') {
      for (const line of wrap(block.text, regular, 10)) draw(line, regular, 10);
    } else if (block.kind === 'list') {
      block.items.forEach((item, i) => {
        wrap(`${block.ordered ? `${i + 1}.` : '-'} ${item}`, regular, 10).forEach((line) =>
          draw(line, regular, 10, 64),
        );
      });
    } else if (block.kind === 'code') {
      for (const line of block.lines) draw(line.slice(0, 90), mono, 8, 64);
    } else {
      for (const row of block.rows)
        for (const line of wrap(row.join('  |  '), regular, 9)) draw(line, regular, 9);
    }
    y -= 6;
  }
  pages.forEach((each, index) => {
    each.drawText(winAnsi(header), { x: 56, y: 808, size: 8, font: regular });
    each.drawText(`Page ${index + 1} of ${pages.length}`, { x: 270, y: 36, size: 8, font: regular });
  });
  addOutline(pdf, pages, marks);
  return Buffer.from(await pdf.save());
}

/** Writes /Outlines from the heading marks, nesting each heading under the last one of a lower level. */
function addOutline(pdf: PDFDocument, pages: PDFPage[], marks: Mark[]): void {
  if (marks.length === 0) return;
  const context = pdf.context;
  interface Node {
    mark: Mark | null;
    ref: PDFRef;
    children: Node[];
    parent: Node | null;
  }
  const root: Node = { mark: null, ref: context.nextRef(), children: [], parent: null };
  const stack: Node[] = [root];
  for (const mark of marks) {
    while (stack.length > 1 && stack[stack.length - 1].mark!.level >= mark.level) stack.pop();
    const parent = stack[stack.length - 1];
    const node: Node = { mark, ref: context.nextRef(), children: [], parent };
    parent.children.push(node);
    stack.push(node);
  }
  const pending: Node[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const entries: Record<string, unknown> = {};
    if (node.mark) {
      entries.Title = PDFString.of(node.mark.title);
      entries.Parent = node.parent!.ref;
      entries.Dest = context.obj([
        pages[node.mark.page].ref,
        PDFName.of('XYZ'),
        PDFNumber.of(56),
        PDFNumber.of(node.mark.y),
        null,
      ]);
      const siblings = node.parent!.children;
      const index = siblings.indexOf(node);
      if (index > 0) entries.Prev = siblings[index - 1].ref;
      if (index < siblings.length - 1) entries.Next = siblings[index + 1].ref;
    } else {
      entries.Type = PDFName.of('Outlines');
    }
    if (node.children.length > 0) {
      entries.First = node.children[0].ref;
      entries.Last = node.children[node.children.length - 1].ref;
      entries.Count = PDFNumber.of(node.children.length);
    }
    context.assign(node.ref, context.obj(entries as never));
    pending.push(...node.children);
  }
  pdf.catalog.set(PDFName.of('Outlines'), root.ref);
}
