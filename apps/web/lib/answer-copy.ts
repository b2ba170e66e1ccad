import { sourcesBlock } from '@lumina/shared';
import type { Citation } from '@lumina/shared';

/**
 * An answer as the Copy button puts it on the clipboard: the text with its `[n]` markers, then its
 * sources by marker, as the OpenAI endpoint and the Markdown export write them, so a pasted answer still
 * says where it comes from.
 */
export function answerWithSources(
  text: string,
  citations: readonly Pick<Citation, 'marker' | 'title' | 'headingPath' | 'pages'>[],
): string {
  return `${text.trim()}${sourcesBlock(citations)}`;
}

/** An answer's time: milliseconds below one second ("340 ms"), else seconds ("2.4 s"); never "0.0 s". */
export function formatDuration(ms: number): string {
  if (ms < 1) return '< 1 ms';
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}
