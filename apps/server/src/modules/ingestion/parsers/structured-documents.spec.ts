import { chunkDocument } from '@lumina/rag';
import type { Chunk } from '@lumina/rag';
import {
  DOCS_PAGE,
  DOCS_PAGE_BOILERPLATE,
  DOCS_PAGE_HEADING_PATHS,
  DOCX_HEADING_PATHS,
  PUMP_MANUAL,
  makeStructuredDocx,
  makeStructuredPdf,
} from '../../../test/fixtures/ingestion/structured-documents';
import type { ParsedText } from './document-parser';
import { DocxParser } from './docx.parser';
import { HtmlParser } from './html.parser';
import { PdfParser } from './pdf.parser';

/** The chunks the ingestion pipeline would store for a parsed document. */
function chunksOf(parsed: ParsedText, title: string, maxChars = 400): Chunk[] {
  return chunkDocument({ documentId: 'd', title, ...parsed }, { unit: 'chunk', maxChars, overlapChars: 0 });
}

const uniquePaths = (chunks: Chunk[]) => [
  ...new Map(chunks.map((chunk) => [JSON.stringify(chunk.headingPath), chunk.headingPath])).values(),
];

describe('a documentation page with site navigation, a sidebar, a cookie banner and a footer', () => {
  let parsed: ParsedText;
  beforeAll(async () => {
    parsed = await new HtmlParser().parse(Buffer.from(DOCS_PAGE), 'decimal.html');
  });

  it('keeps the article only, under the headings a reader sees, titled by <title>', () => {
    expect(parsed.title).toBe('decimal — Decimal fixed point arithmetic');
    const chunks = chunksOf(parsed, parsed.title!);
    expect(uniquePaths(chunks)).toEqual(DOCS_PAGE_HEADING_PATHS);
    for (const chrome of DOCS_PAGE_BOILERPLATE) expect(parsed.text).not.toContain(chrome);
    expect(chunks[0].text).toMatch(/^The `decimal` module provides support/);
  });

  it('reads a heading with a permalink anchor once ("Decimal(value)", not "DecimalDecimal(value)")', () => {
    expect(parsed.text).toContain('## Decimal(value)\n');
    expect(parsed.text).not.toMatch(/DecimalDecimal|¶/);
  });

  it('links chunks to the ids the page gave its headings', () => {
    const chunks = chunksOf(parsed, parsed.title!);
    const anchorOf = (heading: string) =>
      chunks.find((chunk) => chunk.headingPath.at(-1) === heading)?.anchor;
    expect(anchorOf('Quick start')).toBe('quick-start');
    expect(anchorOf('Decimal(value)')).toBe('decimal-objects');
    expect(anchorOf('Methods')).toBe('methods');
  });

  it('writes code blocks as fenced blocks and tables as pipe tables, lists with their nesting', () => {
    expect(parsed.text).toContain(
      "```python\nfrom decimal import *\ngetcontext().prec = 6\nDecimal(1) / Decimal(7)\n# Decimal('0.142857')\n```",
    );
    expect(parsed.text).toContain(
      '| Attribute | Default | Meaning |\n| --- | --- | --- |\n| prec | 28 | Number of significant digits |',
    );
    expect(parsed.text).toContain('| Emax | 999999 | Largest exponent \\| upper bound |');
    expect(parsed.text).toContain(
      '- `as_integer_ratio()` returns a pair of integers whose ratio is exactly the Decimal.\n' +
        '  - The denominator is always positive.',
    );
  });

  it('falls back to the first <h1> for the title, and keeps a page without any chrome whole', async () => {
    const page =
      '<html><body><h1>Release notes</h1><p>Version 2 adds offline mode.</p><h2>Fixes</h2><p>None.</p></body></html>';
    const bare = await new HtmlParser().parse(Buffer.from(page), 'notes.html');
    expect(bare.title).toBe('Release notes');
    expect(bare.text).toBe('# Release notes\n\nVersion 2 adds offline mode.\n\n## Fixes\n\nNone.');
  });
});

describe('a Word report with styled headings, a custom "Titre 2" style, lists and a table', () => {
  it('maps the heading styles to heading paths and keeps lists and the table', async () => {
    const parsed = await new DocxParser().parse(
      await makeStructuredDocx({ title: 'Relocation 2027' }),
      'plan.docx',
    );
    expect(parsed.title).toBe('Relocation 2027');
    expect(parsed.format).toBe('markdown');
    expect(uniquePaths(chunksOf(parsed, parsed.title!))).toEqual(DOCX_HEADING_PATHS);
    expect(parsed.text).toContain(
      '1. Pack the archive room.\n2. Move the servers to the new racks.\n3. Move the desks and chairs.',
    );
    expect(parsed.text).toContain('- Rain may delay the trucks.\n- The freight lift holds 500 kg at most.');
    expect(parsed.text).toContain('| **Item** | **Cost (EUR)** |\n| --- | --- |\n| Movers | 12,000 |');
    // The running header and footer of the section are not body text.
    expect(parsed.text).not.toMatch(/internal|Confidential/);
  });

  it('recognises custom heading styles by name in other languages, and titles by the first heading without core title', async () => {
    const parsed = await new DocxParser().parse(
      await makeStructuredDocx({
        customHeadingStyle: { id: 'Uberschrift2', name: 'Überschrift 2', level: 2 },
      }),
      'plan.docx',
    );
    expect(parsed.title).toBe('Office relocation plan');
    expect(parsed.text).toContain('\n## Budget\n');
  });
});

describe('a PDF manual with bookmarks, metadata and running headers and footers', () => {
  let parsed: ParsedText;
  beforeAll(async () => {
    const pdf = await makeStructuredPdf(PUMP_MANUAL, {
      title: 'P-200 pump — service manual',
      runningHeader: 'P-200 service manual — rev. 3',
      outline: true,
    });
    parsed = await new PdfParser().parse(pdf, 'manual.pdf');
  });

  it('takes the title from the metadata and heading paths from the outline', () => {
    expect(parsed.title).toBe('P-200 pump — service manual');
    expect(parsed.format).toBe('markdown');
    expect(uniquePaths(chunksOf(parsed, parsed.title!))).toEqual([
      ['Installation', 'Choosing a site'],
      ['Installation', 'Wiring'],
      ['Maintenance', 'Weekly checks'],
      ['Maintenance', 'Replacing the filter'],
      ['Troubleshooting', 'Low pressure'],
    ]);
  });

  it('removes the running header and the "Page n of m" footer from every page', () => {
    expect(parsed.text).not.toContain('rev. 3');
    expect(parsed.text).not.toMatch(/Page \d+ of \d+/);
    expect(parsed.text).toContain('The pump must be primed before the first start');
  });

  it('keeps page numbers on the chunks, a section that runs over a page break on both pages', () => {
    const chunks = chunksOf(parsed, parsed.title!);
    expect(parsed.pageStarts!.length).toBeGreaterThanOrEqual(4);
    expect(chunks.every((chunk) => chunk.pages && chunk.pages.first >= 1)).toBe(true);
    const first = chunks.find((chunk) => chunk.headingPath.at(-1) === 'Choosing a site')!;
    expect(first.pages).toEqual({ first: 1, last: 1 });
    const low = chunks.find((chunk) => chunk.headingPath.at(-1) === 'Low pressure')!;
    expect(low.pages!.first).toBe(parsed.pageStarts!.length);
    const filter = chunks.filter((chunk) => chunk.headingPath.at(-1) === 'Replacing the filter');
    expect(new Set(filter.map((chunk) => chunk.pages!.last)).size).toBeGreaterThan(1);
  });

  it('without an outline or metadata, stays plain text titled by nothing but still paged', async () => {
    const plain = await new PdfParser().parse(await makeStructuredPdf(PUMP_MANUAL), 'manual.pdf');
    expect(plain.title).toBeUndefined();
    expect(plain.format).toBe('plain');
    expect(plain.text).not.toMatch(/Page \d+ of \d+/);
    expect(plain.pageStarts!.length).toBe(parsed.pageStarts!.length);
  });
});
