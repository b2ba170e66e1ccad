import type { DocumentParser, ParsedText } from './document-parser';
import { decodeUtf8 } from './decode-utf8';

/** .txt: UTF-8 text, cut by sentences. */
export class TextParser implements DocumentParser {
  readonly format = 'txt' as const;

  async parse(bytes: Buffer, name: string): Promise<ParsedText> {
    return { text: decodeUtf8(bytes, name), format: 'plain' };
  }
}
