import type { DocumentParser, ParsedText } from './document-parser';
import { decodeUtf8 } from './decode-utf8';

/** .md: UTF-8 Markdown, cut at its headings. */
export class MarkdownParser implements DocumentParser {
  readonly format = 'md' as const;

  async parse(bytes: Buffer, name: string): Promise<ParsedText> {
    return { text: decodeUtf8(bytes, name), format: 'markdown' };
  }
}
