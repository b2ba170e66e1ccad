import type { TextFormat } from '@lumina/rag';
import type { SourceFormat } from '../uploads/supported-formats';

/** A heading of the parsed text and the link target the document gave it (an HTML id), if any. */
export interface HeadingAnchor {
  /** Offset of the heading's line in `ParsedText.text`. */
  offset: number;
  anchor: string | null;
}

/** A document's text, ready for the chunker: Markdown keeps its headings, the rest is plain. */
export interface ParsedText {
  text: string;
  format: TextFormat;
  /** A better title than the file name, when the document carries one. */
  title?: string;
  /** Paged documents (PDF): `pageStarts[i]` is the offset in `text` where page i + 1 starts. */
  pageStarts?: number[];
  /** Headings in text order with the anchors the document gives them; chunks under them link there. */
  headingAnchors?: HeadingAnchor[];
}

/**
 * Turns a stored file's bytes into text: a pure function of (bytes, file name), so it runs wherever the
 * work is scheduled. Throws UnreadableDocumentError, with a sentence a person understands, when the
 * bytes can never be read (the job then fails at once instead of retrying).
 */
export interface DocumentParser {
  readonly format: SourceFormat;
  parse(bytes: Buffer, name: string): Promise<ParsedText>;
}
