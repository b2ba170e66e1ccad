import { Parser } from 'htmlparser2';
import { UnreadableDocumentError } from '../../errors/unreadable-document.error';

/**
 * Deeper than this, a page is refused. Real pages nest a few dozen elements; the HTML parser (and the
 * readability scorer after it) spend time in proportion to size × depth, so 100,000 nested `<div>`s
 * would hold the CPU for many seconds before failing somewhere else with a misleading reason.
 */
export const MAX_HTML_DEPTH = 512;

/** Pages with more elements than this skip the readability pass (it is quadratic-ish on huge pages). */
export const READABILITY_MAX_ELEMENTS = 20_000;

/**
 * Pages nested deeper than this skip the readability pass too: it scores a paragraph's text into its
 * few nearest ancestors only, so on a page whose text sits at hundreds of levels it picked the
 * innermost few boxes (a 200 KB page nested 500 deep kept 8 of its 500 paragraphs). Real pages stay
 * well below it.
 */
export const READABILITY_MAX_DEPTH = 100;

export interface HtmlShape {
  elements: number;
  depth: number;
}

class TooDeepError extends Error {}

/**
 * Measures a page's element count and nesting with the same tokenizer and implied-end-tag rules that
 * build its DOM, and stops at the first element past MAX_HTML_DEPTH: the scan costs at most
 * size × MAX_HTML_DEPTH, however the page is shaped.
 */
export function measureHtml(html: string, name: string): HtmlShape {
  let depth = 0;
  let deepest = 0;
  let elements = 0;
  const parser = new Parser(
    {
      onopentag() {
        elements++;
        depth++;
        if (depth > deepest) deepest = depth;
        if (depth > MAX_HTML_DEPTH) throw new TooDeepError();
      },
      onclosetag() {
        depth--;
      },
    },
    { decodeEntities: false },
  );
  try {
    parser.write(html);
    parser.end();
  } catch (error) {
    if (error instanceof TooDeepError) {
      throw new UnreadableDocumentError(
        `"${name}" nests its HTML elements more than ${MAX_HTML_DEPTH} deep; Lumina reads pages nested at most ${MAX_HTML_DEPTH} deep.`,
      );
    }
    throw error;
  }
  return { elements, depth: deepest };
}
