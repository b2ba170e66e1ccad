import { extractText, getDocumentProxy } from 'unpdf';
import { UnreadableDocumentError } from '../errors/unreadable-document.error';
import type { DocumentParser, ParsedText } from './document-parser';

/** .pdf: the text layer (unpdf, i.e. pdf.js), page by page; no OCR. */
export class PdfParser implements DocumentParser {
  readonly format = 'pdf' as const;

  async parse(bytes: Buffer, name: string): Promise<ParsedText> {
    let pages: string[];
    try {
      const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
      try {
        pages = (await extractText(pdf, { mergePages: false })).text;
      } finally {
        await pdf.destroy();
      }
    } catch (error) {
      throw new UnreadableDocumentError(describePdfError(name, error));
    }
    const text = pages
      .map((page) => page.replace(/[ \t]+\n/g, '\n').trim())
      .filter(Boolean)
      .join('\n\n');
    if (!text) {
      throw new UnreadableDocumentError(
        `"${name}" has no text layer (it may be a scanned image); Lumina reads the text of PDFs and does not run OCR.`,
      );
    }
    return { text, format: 'plain' };
  }
}

function describePdfError(name: string, error: unknown): string {
  const kind = (error as { name?: string }).name;
  if (kind === 'PasswordException') {
    return `"${name}" is password-protected; remove the password and upload it again.`;
  }
  if (kind === 'InvalidPDFException') {
    return `"${name}" could not be read as a PDF: its structure is damaged (the file may be corrupt or cut off).`;
  }
  return `"${name}" could not be read as a PDF: ${(error as Error).message ?? String(error)}.`;
}
