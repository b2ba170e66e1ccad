import { htmlToMarkdown, xmlDepth } from '@lumina/rag';
import type { DomNode } from '@lumina/rag';
import { zipSync } from 'fflate';
import mammoth from 'mammoth';
import { parseHTML } from 'linkedom';
import { UnreadableDocumentError } from '../errors/unreadable-document.error';
import type { DocumentParser, ParsedText } from './document-parser';
import { coreTitle, headingStyleMap, headingStyles } from './docx/docx-styles';
import { unpackZip } from './docx/zip-container';

/** XML nested deeper than this is refused before mammoth (whose reader recurses) sees it. */
const MAX_XML_DEPTH = 256;

/**
 * .docx: headings from the paragraph styles (built-in, custom ones named like "Titre 2", or with an
 * outline level), lists and tables kept, through mammoth to HTML and then to Markdown. The archive is
 * unpacked first under size and entry-count bounds, images never inflated; mammoth reads only what
 * passed. Title: the core property dc:title, else the first heading.
 */
export class DocxParser implements DocumentParser {
  readonly format = 'docx' as const;

  async parse(bytes: Buffer, name: string): Promise<ParsedText> {
    const parts = unpackZip(bytes, name, (entry) => /\.(?:xml|rels)$/i.test(entry));
    for (const [part, content] of parts) {
      if (xmlDepth(content.toString('utf8'), MAX_XML_DEPTH) > MAX_XML_DEPTH) {
        throw new UnreadableDocumentError(
          `"${name}" could not be read as a Word (.docx) document: its part "${part}" nests elements more than ${MAX_XML_DEPTH} deep.`,
        );
      }
    }
    if (!parts.has('word/document.xml')) {
      throw new UnreadableDocumentError(
        `"${name}" could not be read as a Word (.docx) document: it has no word/document.xml part.`,
      );
    }
    const styles = headingStyles(parts.get('word/styles.xml')?.toString('utf8') ?? '');
    const repacked = Buffer.from(
      zipSync(Object.fromEntries([...parts].map(([part, content]) => [part, new Uint8Array(content)])), {
        level: 0,
      }),
    );
    let html: string;
    try {
      html = (
        await mammoth.convertToHtml(
          { buffer: repacked },
          {
            styleMap: headingStyleMap(styles),
            includeDefaultStyleMap: true,
            // Images are not text; their alt text is kept, their bytes were never unpacked.
            convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
          },
        )
      ).value;
    } catch (error) {
      throw new UnreadableDocumentError(
        `"${name}" could not be read as a Word (.docx) document: ${(error as Error).message}.`,
      );
    }
    const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
    const body = document.body as unknown as DomNode;
    const converted = htmlToMarkdown(body);
    const title =
      coreTitle(parts.get('docProps/core.xml')?.toString('utf8') ?? '') ||
      (converted.headings.find((heading) => heading.level === 1)?.text ?? '');
    return { text: converted.markdown, format: 'markdown', ...(title ? { title } : {}) };
  }
}
