import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import {
  DocxParser,
  flags,
  HtmlParser,
  parseFlags,
  PdfParser,
  runCommand,
  UsageError,
} from '@lumina/server-core';
import type { ParsedText } from '@lumina/server-core';
import { parseHTML } from 'linkedom';
import { blocksToDocx, blocksToPdf } from './fidelity/build-documents';
import { blockCuts, boilerplateRemoved, headingsRecovered, normalise } from './fidelity/fidelity-measures';
import type { BlockCuts } from './fidelity/fidelity-measures';
import { markdownBlocks } from './fidelity/markdown-blocks';

const USAGE = `usage: npm run bench:fidelity -- --html <page.html>[,…] --markdown <README.md>[,…]

Parses real documents the way ingestion does and prints, per format, how much of their structure
survives: headings recovered (the source's headings that come out as headings with the same text),
boilerplate removed (site chrome in HTML — text inside nav, aside, footer, header and consent banners —
and the running headers and footers of the .docx and .pdf), and tables or fenced code blocks that the
default chunking (1200/200) cuts in half. Each Markdown file is rebuilt as a .docx (heading styles,
lists, tables, a running header and footer) and as a .pdf (bookmarks, title metadata, a running header
and "Page n of m") before it is parsed, so the expected headings are known exactly.`;

interface Row {
  format: string;
  document: string;
  headings: [number, number];
  boilerplate: [number, number];
  cuts: BlockCuts;
  title: string;
}

/** Site chrome by element and role, and by the ids and classes documentation themes give it. */
const CHROME =
  'nav, aside, footer, [role="navigation"], [role="complementary"], [role="contentinfo"], .nav, #nav, .sidebar, #sidebar, .menu-bar, [id$="menu-bar"], [id$="help-container"], [id$="search-wrapper"]';
const CONSENT = /cookie|consent|gdpr/i;

/** The page's headings outside site chrome, and the chrome's text snippets (12+ letters and digits). */
type Element = ReturnType<typeof parseHTML>['document']['documentElement'];

function htmlTruth(html: string): { headings: string[]; snippets: string[] } {
  const { document } = parseHTML(html);
  const inChrome = (element: Element) =>
    Boolean(element.closest(CHROME)) ||
    [...ancestors(element)].some((node) =>
      CONSENT.test(`${node.getAttribute('id') ?? ''} ${node.getAttribute('class') ?? ''}`),
    );
  const headings = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
    .filter((heading) => !inChrome(heading))
    .map((heading) => (heading.textContent ?? '').replace(/[¶#§]/g, '').trim())
    .filter(Boolean);
  const headingKeys = new Set(headings.map(normalise));
  // Text the chrome shares with the article (a table of contents names the sections) is not chrome-only.
  const article = parseHTML(html).document;
  for (const element of article.querySelectorAll(CHROME)) element.remove();
  const articleText = normalise(article.body?.textContent ?? '');
  const snippets = new Set<string>();
  const chrome = [
    ...document.querySelectorAll(CHROME),
    ...[...document.querySelectorAll('[id], [class]')].filter((node) =>
      CONSENT.test(`${node.getAttribute('id') ?? ''} ${node.getAttribute('class') ?? ''}`),
    ),
  ];
  for (const container of chrome) {
    for (const leaf of container.querySelectorAll('a, li, p, span, b, button, h1, h2, h3, h4, h5, h6')) {
      if (leaf.querySelector('a, li, p')) continue;
      const text = (leaf.textContent ?? '').replace(/\s+/g, ' ').trim();
      const key = normalise(text);
      if (key.length >= 12 && !headingKeys.has(key) && !articleText.includes(key)) snippets.add(text);
    }
  }
  return { headings, snippets: [...snippets] };
}

function* ancestors(element: Element): Generator<Element> {
  for (let node: Element | null = element; node; node = node.parentElement) yield node;
}

function row(
  format: string,
  document: string,
  parsed: ParsedText,
  headings: string[],
  snippets: string[],
): Row {
  return {
    format,
    document,
    headings: [headingsRecovered(headings, parsed), headings.length],
    boilerplate: [boilerplateRemoved(snippets, parsed), snippets.length],
    cuts: blockCuts(parsed, parsed.title ?? document),
    title: parsed.title ?? '(file name)',
  };
}

function files(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((file) => file.trim())
    .filter(Boolean);
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, flags({ string: 'html markdown', boolean: 'help' }));
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const htmlFiles = files(values.html);
  const markdownFiles = files(values.markdown);
  if (htmlFiles.length === 0 && markdownFiles.length === 0)
    throw new UsageError('give --html or --markdown files');
  const rows: Row[] = [];
  for (const file of htmlFiles) {
    const bytes = readFileSync(file);
    const truth = htmlTruth(bytes.toString('utf8'));
    rows.push(
      row(
        'html',
        basename(file),
        await new HtmlParser().parse(bytes, basename(file)),
        truth.headings,
        truth.snippets,
      ),
    );
  }
  for (const file of markdownFiles) {
    const source = readFileSync(file, 'utf8');
    const blocks = markdownBlocks(source);
    const headings = blocks.flatMap((block) => (block.kind === 'heading' ? [block.text] : []));
    const name = basename(file, '.md');
    const title = headings[0] ?? name;
    const header = `${name} handbook - internal draft`;
    const docx = await blocksToDocx(title, blocks, header, 'Confidential - do not forward');
    rows.push(
      row('docx', `${name}.docx`, await new DocxParser().parse(docx, `${name}.docx`), headings, [
        header,
        'Confidential - do not forward',
      ]),
    );
    const pdfBytes = await blocksToPdf(title, blocks, header);
    const pdf = await new PdfParser().parse(pdfBytes, `${name}.pdf`);
    const pages = pdf.pageStarts?.length ?? 0;
    const pageLines = [
      ...Array.from({ length: pages }, () => header),
      ...Array.from({ length: pages }, (_, i) => `Page ${i + 1} of ${pages}`),
    ];
    // Every page's header and footer is one snippet to remove: count the occurrences left.
    const text = pdf.text;
    const left = text.split(header).length - 1 + (text.match(/Page \d+ of \d+/g)?.length ?? 0);
    rows.push({
      ...row('pdf', `${name}.pdf (${pages} pages)`, pdf, headings, []),
      boilerplate: [pageLines.length - left, pageLines.length],
    });
  }
  print(rows);
}

function print(rows: Row[]): void {
  const ratio = ([a, b]: [number, number]) => (b === 0 ? 'n/a' : `${a}/${b} (${Math.round((100 * a) / b)}%)`);
  const cuts = (c: BlockCuts) =>
    `${c.cut} of ${c.fitting}${c.longer ? ` (+${c.longer} longer than a chunk)` : ''}`;
  console.log(
    '| Format | Document | Title | Headings recovered | Boilerplate removed | Tables/code cut in half |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    console.log(
      `| ${r.format} | ${r.document} | ${r.title} | ${ratio(r.headings)} | ${ratio(r.boilerplate)} | ${cuts(r.cuts)} |`,
    );
  }
  for (const format of ['html', 'docx', 'pdf']) {
    const of = rows.filter((r) => r.format === format);
    if (of.length === 0) continue;
    const sum = (pick: (r: Row) => [number, number]): [number, number] =>
      of.reduce<[number, number]>((acc, r) => [acc[0] + pick(r)[0], acc[1] + pick(r)[1]], [0, 0]);
    const c = of.reduce(
      (acc, r) => ({
        fitting: acc.fitting + r.cuts.fitting,
        cut: acc.cut + r.cuts.cut,
        longer: acc.longer + r.cuts.longer,
      }),
      { fitting: 0, cut: 0, longer: 0 },
    );
    console.log(
      `| **${format}** | **${of.length} documents** | | **${ratio(sum((r) => r.headings))}** | **${ratio(sum((r) => r.boilerplate))}** | **${cuts(c)}** |`,
    );
  }
}

runCommand(main, USAGE);
