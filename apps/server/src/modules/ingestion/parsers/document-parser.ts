import type { TextFormat } from '@lumina/rag';
import type { SourceFormat } from '../uploads/supported-formats';

/** A document's text, ready for the chunker: Markdown keeps its headings, the rest is plain. */
export interface ParsedText {
  text: string;
  format: TextFormat;
  /** A better title than the file name, when the format carries one. */
  title?: string;
}

/**
 * Turns a stored file's bytes into text. Throws UnreadableDocumentError, with a sentence a person
 * understands, when the bytes can never be read (the job then fails at once instead of retrying).
 */
export interface DocumentParser {
  readonly format: SourceFormat;
  parse(bytes: Buffer, name: string): Promise<ParsedText>;
}
