import TurndownService from 'turndown';
import type { DocumentParser, ParsedText } from './document-parser';
import { decodeUtf8 } from './decode-utf8';

/** Elements whose content is not the document's text. */
const DROPPED = [
  'head',
  'title',
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'svg',
  'canvas',
] as const;

/**
 * .html: converted to Markdown with turndown, so its h1–h6 become the headings the heading-aware chunker
 * cuts at. Markdown escaping is off: the text is for reading and searching, not for rendering back.
 */
export class HtmlParser implements DocumentParser {
  readonly format = 'html' as const;
  private readonly turndown: TurndownService;

  constructor() {
    this.turndown = new TurndownService({
      headingStyle: 'atx',
      codeBlockStyle: 'fenced',
      bulletListMarker: '-',
    });
    this.turndown.remove([...DROPPED] as TurndownService.Filter);
    this.turndown.escape = (text: string) => text;
  }

  async parse(bytes: Buffer, name: string): Promise<ParsedText> {
    const html = decodeUtf8(bytes, name);
    const rawTitle = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1];
    // turndown parses the title's entities (&amp;, &eacute;, …) like the rest of the page.
    const title = rawTitle ? this.turndown.turndown(`<p>${rawTitle}</p>`).replace(/\s+/g, ' ').trim() : '';
    const text = this.turndown.turndown(html).trim();
    return { text, format: 'markdown', ...(title ? { title } : {}) };
  }
}
