import { headingsAfterTitle, type PageRange } from '@lumina/shared';
import { formatPages } from './citations';

/** Words a passage's opening shows, to tell apart passages under the same heading. */
const OPENING_WORDS = 8;

/** "Title › Heading › Subheading" of a passage. */
export function passageLabel(title: string, headingPath: readonly string[]): string {
  return [title, ...headingsAfterTitle(title, headingPath)].join(' › ');
}

/**
 * The first words of a passage as a person reads them: headings, fences, table rules and Markdown
 * marks left out; "…" when there is more.
 */
export function openingWords(text: string, count = OPENING_WORDS): string {
  const prose = text
    .split('\n')
    .filter((line) => !/^\s*(?:#{1,6}\s|```|~~~|\|?[\s:|-]+\|?\s*$)/.test(line))
    .join(' ')
    .replace(/!?\[([^\]\n]*)\]\([^)\s]*\)/g, '$1')
    .replace(/[`*_>|#]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const words = prose.split(' ').filter(Boolean);
  if (words.length === 0) return '';
  return words.length > count ? `${words.slice(0, count).join(' ')}…` : words.join(' ');
}

/**
 * A passage named so that two under the same heading differ: "Title › Heading, p. 3 — “first words…”".
 */
export function passageSourceLabel(
  title: string,
  headingPath: readonly string[],
  text: string,
  pages?: PageRange | null,
): string {
  const place = passageLabel(title, headingPath);
  const page = formatPages(pages);
  const opening = openingWords(text);
  return `${place}${page ? `, ${page}` : ''}${opening ? ` — “${opening}”` : ''}`;
}
