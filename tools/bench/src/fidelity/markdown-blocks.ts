import { parseMarkdownHeadings } from '@lumina/rag';

/** A Markdown source reduced to the blocks a Word or PDF author would write. */
export type SourceBlock =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'code'; lines: string[] }
  | { kind: 'table'; rows: string[][] };

/** Inline Markdown to plain words: links to their text, emphasis and code marks and HTML tags dropped. */
export function plainInline(text: string): string {
  return text
    .replace(/!?\[([^\]]{0,500})\]\([^)]{0,500}\)/g, '$1')
    .replace(/<[^>]{0,300}>/g, '')
    .replace(/[*_`]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Splits a README into headings, paragraphs, lists, fenced code and pipe tables. Good enough to rebuild
 * the same document as .docx and .pdf; not a Markdown parser.
 */
export function markdownBlocks(source: string): SourceBlock[] {
  const headings = new Map(parseMarkdownHeadings(source).map((heading) => [heading.start, heading]));
  const blocks: SourceBlock[] = [];
  const lines = source.split('\n');
  let offset = 0;
  let paragraph: string[] = [];
  const endParagraph = () => {
    const text = plainInline(paragraph.join(' '));
    if (text) blocks.push({ kind: 'paragraph', text });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heading = headings.get(offset);
    offset += line.length + 1;
    if (heading) {
      endParagraph();
      if (heading.title) blocks.push({ kind: 'heading', level: heading.level, text: heading.title });
      // A setext heading spans its underline too.
      while (offset < heading.end && i + 1 < lines.length) offset += lines[++i].length + 1;
      continue;
    }
    const fence = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      endParagraph();
      const code: string[] = [];
      while (i + 1 < lines.length && !lines[i + 1].trimStart().startsWith(fence[1])) {
        code.push(lines[++i]);
        offset += lines[i].length + 1;
      }
      if (i + 1 < lines.length) offset += lines[++i].length + 1;
      if (code.length > 0) blocks.push({ kind: 'code', lines: code });
      continue;
    }
    if (/^\s*\|.*\|\s*$/.test(line)) {
      endParagraph();
      const rows: string[][] = [];
      let j = i;
      while (j < lines.length && /^\s*\|.*\|\s*$/.test(lines[j])) {
        if (!/^\s*\|[\s:|-]+\|\s*$/.test(lines[j])) {
          rows.push(
            lines[j]
              .trim()
              .slice(1, -1)
              .split(/(?<!\\)\|/)
              .map((cell) => plainInline(cell)),
          );
        }
        if (j > i) offset += lines[j].length + 1;
        j++;
      }
      i = j - 1;
      if (rows.length > 0) blocks.push({ kind: 'table', rows });
      continue;
    }
    const item = /^\s{0,3}([-*+]|\d{1,3}[.)])\s+(.*)$/.exec(line);
    if (item) {
      endParagraph();
      const ordered = /\d/.test(item[1]);
      const last = blocks[blocks.length - 1];
      if (last?.kind === 'list' && last.ordered === ordered) last.items.push(plainInline(item[2]));
      else blocks.push({ kind: 'list', ordered, items: [plainInline(item[2])] });
      continue;
    }
    if (!line.trim()) endParagraph();
    else paragraph.push(line);
  }
  endParagraph();
  return blocks.filter((block) => block.kind !== 'list' || block.items.some(Boolean));
}
