import mammoth from 'mammoth';
import { UnreadableDocumentError } from '../errors/unreadable-document.error';
import type { DocumentParser, ParsedText } from './document-parser';

/** .docx: the document's raw text (mammoth), paragraph by paragraph, cut by sentences. */
export class DocxParser implements DocumentParser {
  readonly format = 'docx' as const;

  async parse(bytes: Buffer, name: string): Promise<ParsedText> {
    let text: string;
    try {
      text = (await mammoth.extractRawText({ buffer: bytes })).value;
    } catch (error) {
      throw new UnreadableDocumentError(
        `"${name}" could not be read as a Word (.docx) document: ${(error as Error).message}.`,
      );
    }
    return { text: text.replace(/\n{3,}/g, '\n\n').trim(), format: 'plain' };
  }
}
