import { cleanDocumentTitle, parseMarkdownHeadings } from './markdown-headings';

export { cleanDocumentTitle };

/** `title:` of a YAML front matter block at the very start, quotes removed; null without one. */
function frontMatterTitle(text: string): string | null {
  const block = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(text);
  if (!block) return null;
  const line = /^title[ \t]*:[ \t]*(.+?)[ \t]*$/m.exec(block[1]);
  if (!line) return null;
  const value = line[1].replace(/^(["'])(.*)\1$/, '$2').trim();
  return value || null;
}

/**
 * A Markdown document's title: front matter `title`, else its first level-1 heading (Markdown, or an
 * HTML `<h1>` as READMEs write them) when it comes before any level-2 heading — a level-1 heading
 * further down names a section ("Features"), not the document. Badges, images, links and emphasis are
 * stripped (cleanDocumentTitle). Null when there is none: the caller names the document by its file.
 */
export function markdownDocumentTitle(text: string): string | null {
  const fromFrontMatter = frontMatterTitle(text);
  if (fromFrontMatter) return cleanDocumentTitle(fromFrontMatter) || null;
  const headings = parseMarkdownHeadings(text);
  const firstSection = headings.find((heading) => heading.level >= 2)?.start ?? Number.POSITIVE_INFINITY;
  const candidates: { start: number; raw: string }[] = [];
  const h1 = headings.find((heading) => heading.level === 1);
  if (h1)
    candidates.push({
      start: h1.start,
      raw: text.slice(h1.start, h1.end).replace(/^\s*#\s*|\s*#*\s*$/g, ''),
    });
  const html = /<h1\b[^>]*>([\s\S]{0,1000}?)<\/h1>/i.exec(text);
  if (html) candidates.push({ start: html.index, raw: html[1] });
  for (const candidate of candidates.sort((a, b) => a.start - b.start)) {
    if (candidate.start > firstSection) break;
    const title = cleanDocumentTitle(candidate.raw.split('\n')[0] ?? '');
    if (title) return title;
  }
  return null;
}
