import type { Citation } from '@lumina/shared';
import { formatPages } from './citations';

/**
 * An answer as the Copy button puts it on the clipboard: the text with its `[n]` markers, then its
 * sources by marker ("[1] Title › Heading, p. 3"), so a pasted answer still says where it comes from.
 */
export function answerWithSources(
  text: string,
  citations: readonly Pick<Citation, 'marker' | 'title' | 'headingPath' | 'pages'>[],
): string {
  const seen = new Set<number>();
  const lines = [...citations]
    .sort((a, b) => a.marker - b.marker)
    .filter((citation) => !seen.has(citation.marker) && seen.add(citation.marker))
    .map((citation) => {
      // A document's own H1 often repeats its title: name it once.
      const headings =
        citation.headingPath[0] === citation.title ? citation.headingPath.slice(1) : citation.headingPath;
      const path = [citation.title, ...headings].join(' › ');
      const pages = formatPages(citation.pages);
      return `[${citation.marker}] ${path}${pages ? `, ${pages}` : ''}`;
    });
  return lines.length ? `${text.trim()}\n\nSources:\n${lines.join('\n')}` : text.trim();
}

/** An answer's time: milliseconds below one second ("340 ms"), else seconds ("2.4 s"); never "0.0 s". */
export function formatDuration(ms: number): string {
  if (ms < 1) return '< 1 ms';
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}
