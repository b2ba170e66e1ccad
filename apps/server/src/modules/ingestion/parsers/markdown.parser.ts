import { markdownDocumentTitle } from '@lumina/rag';
import type { DocumentParser, ParsedText } from './document-parser';
import { decodeUtf8 } from './decode-utf8';

/**
 * .md: UTF-8 Markdown, cut at its headings; titled by its front matter `title`, else its first level-1
 * heading (or HTML `<h1>`) before any section, badges and Markdown stripped.
 */
export class MarkdownParser implements DocumentParser {
  readonly format = 'md' as const;

  async parse(bytes: Buffer, name: string): Promise<ParsedText> {
    const text = decodeUtf8(bytes, name);
    const title = markdownDocumentTitle(text) ?? '';
    return { text, format: 'markdown', ...(title ? { title } : {}) };
  }
}
