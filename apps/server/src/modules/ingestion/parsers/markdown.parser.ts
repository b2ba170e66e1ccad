import { parseMarkdownHeadings } from '@lumina/rag';
import type { DocumentParser, ParsedText } from './document-parser';
import { decodeUtf8 } from './decode-utf8';

/** .md: UTF-8 Markdown, cut at its headings; titled by its first level-1 heading. */
export class MarkdownParser implements DocumentParser {
  readonly format = 'md' as const;

  async parse(bytes: Buffer, name: string): Promise<ParsedText> {
    const text = decodeUtf8(bytes, name);
    const title = parseMarkdownHeadings(text).find((heading) => heading.level === 1)?.title ?? '';
    return { text, format: 'markdown', ...(title ? { title } : {}) };
  }
}
