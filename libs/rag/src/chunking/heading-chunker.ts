import { createAnchorAllocator } from './anchor';
import { assertValidChunkerOptions } from './chunk';
import type { Chunk, ChunkerOptions } from './chunk';
import { parseMarkdownHeadings } from './markdown-headings';
import { chunkBySentences } from './sentence-chunker';

interface OpenHeading {
  level: number;
  title: string;
}

/**
 * Chunks a Markdown document section by section. Each section's body (the text between its heading and the
 * next heading) is chunked by sentences; heading lines themselves are not part of any chunk's text but appear
 * in `headingPath`, `anchor` and `indexText`. Text before the first heading has an empty heading path.
 * Offsets refer to the full source and ordinals run across the whole document. Headings with an empty title
 * still close deeper sections but do not appear in heading paths.
 */
export function chunkByHeadings(documentId: string, source: string, options: ChunkerOptions): Chunk[] {
  assertValidChunkerOptions(options);
  const headings = parseMarkdownHeadings(source);
  const allocateAnchor = createAnchorAllocator();
  const chunks: Chunk[] = [];
  const chunkSection = (
    bodyStart: number,
    bodyEnd: number,
    headingPath: string[],
    anchor: string | null,
  ): void => {
    const base = { offset: bodyStart, headingPath, anchor };
    chunks.push(...chunkBySentences(documentId, source.slice(bodyStart, bodyEnd), options, base));
  };

  chunkSection(0, headings.length > 0 ? headings[0].start : source.length, [], null);
  const stack: OpenHeading[] = [];
  headings.forEach((heading, index) => {
    while (stack.length > 0 && stack[stack.length - 1].level >= heading.level) stack.pop();
    stack.push({ level: heading.level, title: heading.title });
    const headingPath = stack.map((open) => open.title).filter((title) => title !== '');
    const bodyEnd = index + 1 < headings.length ? headings[index + 1].start : source.length;
    chunkSection(heading.end, bodyEnd, headingPath, allocateAnchor(headingPath));
  });
  return chunks.map((chunk, ordinal) => ({ ...chunk, ordinal }));
}
