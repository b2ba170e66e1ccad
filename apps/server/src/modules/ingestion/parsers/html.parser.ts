import { cleanDocumentTitle, htmlToMarkdown } from '@lumina/rag';
import type { DocumentParser, ParsedText } from './document-parser';
import { decodeUtf8 } from './decode-utf8';
import { measureHtml } from './html/html-nesting';
import { extractMainContent } from './html/main-content';

/**
 * .html: the page's main content (navigation, sidebars, footers and consent banners removed) converted
 * to Markdown, so its h1–h6 become the headings the heading-aware chunker cuts at, with the ids they
 * carry as citation anchors. Title: `<title>`, else the first `<h1>`.
 */
export class HtmlParser implements DocumentParser {
  readonly format = 'html' as const;

  async parse(bytes: Buffer, name: string): Promise<ParsedText> {
    const html = decodeUtf8(bytes, name);
    const shape = measureHtml(html, name);
    const main = extractMainContent(html, shape);
    const converted = htmlToMarkdown(main.root);
    let text = converted.markdown;
    let headings = converted.headings.map(({ offset, id }) => ({ offset, anchor: id }));
    // The extractor lifts the heading that repeats the page title out of the article: put it back on top,
    // so the page's sections stay under it as the author nested them.
    if (main.readability && main.firstH1 && !converted.headings.some((h) => h.text === main.firstH1)) {
      const top = `# ${main.firstH1}`;
      text = text ? `${top}\n\n${text}` : top;
      const shift = top.length + 2;
      headings = [
        { offset: 0, anchor: main.firstH1Id },
        ...headings.map((heading) => ({ ...heading, offset: heading.offset + shift })),
      ];
    }
    const title = cleanDocumentTitle(main.title) || cleanDocumentTitle(main.firstH1);
    return {
      text,
      format: 'markdown',
      ...(title ? { title } : {}),
      ...(headings.some((heading) => heading.anchor) ? { headingAnchors: headings } : {}),
    };
  }
}
