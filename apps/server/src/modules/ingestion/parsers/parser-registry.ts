import { Injectable } from '@nestjs/common';
import type { SourceFormat } from '../uploads/supported-formats';
import { BeirEntryParser } from './beir-entry.parser';
import type { DocumentParser, ParsedText } from './document-parser';
import { DocxParser } from './docx.parser';
import { HtmlParser } from './html.parser';
import { MarkdownParser } from './markdown.parser';
import { PdfParser } from './pdf.parser';
import { TextParser } from './text.parser';

/** The parser of each stored format. */
@Injectable()
export class ParserRegistry {
  private readonly parsers = new Map<SourceFormat, DocumentParser>(
    [
      new TextParser(),
      new MarkdownParser(),
      new HtmlParser(),
      new PdfParser(),
      new DocxParser(),
      new BeirEntryParser(),
    ].map((parser) => [parser.format, parser]),
  );

  parse(format: SourceFormat, bytes: Buffer, name: string): Promise<ParsedText> {
    const parser = this.parsers.get(format);
    if (!parser) throw new Error(`no parser for the stored format "${format}"`);
    return parser.parse(bytes, name);
  }
}
